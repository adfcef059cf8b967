package io.hare.yarn.scheduler.times;

import io.hare.core.profile.OnlineEstimator.Measured;
import java.util.List;
import java.util.Map;

/**
 * The scheduler's measured task times as a {@link TaskTimeSaver} sees them: a snapshot to save
 * and saved state to take back. Implementations are thread-safe: the saver calls them from its
 * own thread while the scheduler measures.
 */
public interface MeasuredTimes {

  /**
   * The measured state of the live jobs at one moment.
   *
   * @param version a number that grows whenever the measured state changes
   * @param jobs per job id, its measured state in its estimator's order
   */
  record Snapshot(long version, Map<String, List<Measured>> jobs) {}

  /** A consistent snapshot, or null when nothing changed since the one of {@code version}. */
  Snapshot changedSince(long version);

  /**
   * Takes saved state back: a job registered now that has measured nothing yet starts from its
   * saved state at once, any other saved job when it is registered; saved state of a job that is
   * removed first is dropped.
   */
  void seed(Map<String, List<Measured>> saved);
}
