package io.hare.core.plan;

import io.hare.core.TaskTimes;
import java.util.Arrays;

/**
 * One job as the planner sees it at planning time: what is left of it and how fast it runs on
 * each type. The remaining tasks come in groups that the round barrier separates: first the
 * unstarted tasks of the current round ({@code firstGroup}, possibly 0), then whole rounds of k.
 *
 * @param arrivalMs when the job arrived (JCT counts from here)
 * @param releaseMs earliest start of its next unstarted task: now if the current round has ready
 *     tasks, else when the running round is expected to end (or the arrival, offline)
 * @param firstRound absolute index of the round of the first group
 * @param firstGroup unstarted tasks of round {@code firstRound}; 0 when that round is fully
 *     started and the next group is round {@code firstRound + 1}
 * @param fullRounds whole rounds after the first group
 * @param times per type index: task times, or null where the job cannot run
 * @param committedEndMs completion of what is already running (end of its sync), or releaseMs
 */
public record PlanJob(String id, double weight, long arrivalMs, long releaseMs, int k,
    int firstRound, int firstGroup, int fullRounds, TaskTimes[] times, long committedEndMs) {

  /** Most groups of one job that an order ranks one by one ({@link #orderedGroups}). */
  public static final int MAX_ORDERED_GROUPS = 1000;

  public PlanJob {
    if (k < 1 || firstGroup < 0 || firstGroup > k || fullRounds < 0) {
      throw new IllegalArgumentException("job " + id + ": bad remaining work k=" + k
          + " firstGroup=" + firstGroup + " fullRounds=" + fullRounds);
    }
    times = times.clone();
  }

  /** Tasks not yet started. */
  public long unstartedTasks() {
    return firstGroup + (long) fullRounds * k;
  }

  /** Number of task groups (barrier-separated) left. */
  public int groups() {
    return (firstGroup > 0 ? 1 : 0) + fullRounds;
  }

  /**
   * Groups an order ranks one by one, at most {@link #MAX_ORDERED_GROUPS}; later rounds keep the
   * rank of the last ({@code RoundRanks}). Ranking far-future rounds one by one buys nothing, as
   * re-plans rank them again long before they run, and would let one job that declares 10^8
   * rounds fill the planner's memory at every re-plan.
   */
  public int orderedGroups() {
    return Math.min(groups(), MAX_ORDERED_GROUPS);
  }

  /** Tasks in group {@code g} (0-based over the remaining groups). */
  public int groupSize(int g) {
    return g == 0 && firstGroup > 0 ? firstGroup : k;
  }

  /** Absolute round index of group {@code g}. */
  public int groupRound(int g) {
    return firstGroup > 0 ? firstRound + g : firstRound + 1 + g;
  }

  public TaskTimes times(int type) {
    return times[type];
  }

  public boolean canRunOn(int type) {
    return times[type] != null;
  }

  /** Shortest compute time over the types it can run on (given which types have GPUs). */
  public double minComputeMs(boolean[] present) {
    double best = Double.POSITIVE_INFINITY;
    for (int t = 0; t < times.length; t++) {
      if (times[t] != null && present[t]) {
        best = Math.min(best, times[t].computeMs());
      }
    }
    return best;
  }

  public double minSyncMs(boolean[] present) {
    double best = Double.POSITIVE_INFINITY;
    for (int t = 0; t < times.length; t++) {
      if (times[t] != null && present[t]) {
        best = Math.min(best, times[t].syncMs());
      }
    }
    return best;
  }

  /** Shortest round (compute + sync) over usable types: the critical path per round. */
  public double minRoundMs(boolean[] present) {
    double best = Double.POSITIVE_INFINITY;
    for (int t = 0; t < times.length; t++) {
      if (times[t] != null && present[t]) {
        best = Math.min(best, times[t].roundMs());
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return id + "{w=" + weight + ",k=" + k + ",first=" + firstGroup + ",rounds=" + fullRounds
        + ",release=" + releaseMs + ",times=" + Arrays.toString(times) + "}";
  }
}
