package io.hare.bench;

import java.util.List;

/** Durations of a scheduler's background re-plans, and a way to let them finish. */
public interface ReplanTimes {

  /** A scheduler without re-plans. */
  ReplanTimes NONE = new ReplanTimes() {
    @Override
    public List<Long> nanos() {
      return List.of();
    }

    @Override
    public List<Long> cpuNanos() {
      return List.of();
    }

    @Override
    public boolean awaitIdle(long timeoutMs) {
      return true;
    }
  };

  /** Wall time of each finished re-plan, in order. */
  List<Long> nanos();

  /** CPU time of the re-planning thread in each finished re-plan, in order. */
  List<Long> cpuNanos();

  /**
   * Wall time of each split re-plan's snapshot, taken in a heartbeat's pass (counted in that
   * heartbeat too), in order; none for a scheduler whose re-plans do not split.
   */
  default List<Long> snapshotNanos() {
    return List.of();
  }

  /**
   * Waits until no re-plan runs or waits to run, at most {@code timeoutMs}.
   *
   * @return false if one was still running at the timeout
   */
  boolean awaitIdle(long timeoutMs) throws InterruptedException;
}
