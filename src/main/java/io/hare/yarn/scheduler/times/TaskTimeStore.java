package io.hare.yarn.scheduler.times;

import io.hare.core.profile.OnlineEstimator.Measured;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where the scheduler keeps the task times it measured of running jobs across an RM restart or
 * failover ({@code yarn.scheduler.hare.task-times.store.uri}): per job (its application id) the
 * measured state of its estimator, per GPU type ({@link Measured}).
 *
 * <p>Measured times are an optimisation: a store that cannot be read loads nothing (every job
 * starts from its profile, as without a store) and never stops the RM. Called from one thread at
 * a time ({@link TaskTimeSaver}'s).
 */
public interface TaskTimeStore extends AutoCloseable {

  /** The feature off: nothing is loaded, nothing saved. */
  TaskTimeStore NONE = new TaskTimeStore() {
    @Override
    public Map<String, List<Measured>> load() {
      return Map.of();
    }

    @Override
    public void save(Map<String, List<Measured>> jobs) {
      // off
    }

    @Override
    public String toString() {
      return "no task-time store";
    }
  };

  /**
   * The saved jobs, each with its measured state in its estimator's order; empty when nothing was
   * saved or the saved state cannot be read (logged at WARN). Never throws.
   */
  Map<String, List<Measured>> load();

  /**
   * Replaces what is saved with {@code jobs}, atomically: a reader finds the old state or the new
   * one, never a part.
   *
   * @throws IOException if it could not be saved (the old state stays)
   */
  void save(Map<String, List<Measured>> jobs) throws IOException;

  /** Releases what the store holds open (a file-system client); by default nothing. */
  @Override
  default void close() throws IOException {}
}
