package io.hare.bench;

/**
 * A scheduler under test, subclassed only to time its scheduling path ({@link PathTimer}); its
 * decisions are the unmodified scheduler's.
 */
public interface TimedScheduler {

  PathTimer timer();

  /** Its background re-plans; none for a scheduler that does not re-plan. */
  default ReplanTimes replanTimes() {
    return ReplanTimes.NONE;
  }
}
