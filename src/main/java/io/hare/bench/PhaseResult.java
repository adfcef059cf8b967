package io.hare.bench;

/**
 * One phase of a run: containers the AMs received, ticks, and the scheduler's time in its
 * scheduling path during the phase ({@link PathTimer.Snapshot}: heartbeats and AM calls).
 */
public record PhaseResult(long allocations, long ticks, PathTimer.Snapshot path) {

  /** Containers allocated per second of scheduling-path wall time; 0 when nothing was timed. */
  public double allocationsPerSecond() {
    return rate(path.pathNanos());
  }

  /** Containers allocated per second of scheduling-path CPU time (the scheduler's own work). */
  public double allocationsPerCpuSecond() {
    return rate(path.pathCpuNanos());
  }

  private double rate(long nanos) {
    return nanos <= 0 ? 0 : allocations / (nanos / 1e9);
  }
}
