package io.hare.yarn.scheduler;

/**
 * Told how long the parts of each re-plan took: the metrics, and a bench that records the
 * longest ({@link HareScheduler#replanListener}).
 */
@FunctionalInterface
public interface ReplanListener {

  /** A re-plan's solve (or a whole re-plan, for a policy that does not split) took this long. */
  void replanned(long nanos);

  /**
   * A split re-plan's snapshot took this long, in the pass that started it: heartbeat time, on
   * the scheduler's thread.
   */
  default void snapshotTaken(long nanos) {}
}
