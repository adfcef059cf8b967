package io.hare.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What a task cost beyond its computation, in one run of the workers bench: per task, its wall
 * time (from when its process was started, or when its resident worker was handed it, to its
 * result written) and its compute time, and the difference, the overhead.
 */
public record WorkerOverheads(List<Long> wallMs, List<Long> computeMs) {

  public WorkerOverheads {
    wallMs = List.copyOf(wallMs);
    computeMs = List.copyOf(computeMs);
    if (wallMs.size() != computeMs.size()) {
      throw new IllegalArgumentException(wallMs.size() + " wall times for " + computeMs.size()
          + " compute times");
    }
  }

  /** Each task's overhead: wall minus compute, never below 0 (clocks of two processes). */
  public List<Long> overheadMs() {
    List<Long> o = new ArrayList<>(wallMs.size());
    for (int i = 0; i < wallMs.size(); i++) {
      o.add(Math.max(0, wallMs.get(i) - computeMs.get(i)));
    }
    return o;
  }

  public int tasks() {
    return wallMs.size();
  }

  /** The overhead's {@code p}-th percentile (nearest rank); NaN without tasks. */
  public double overheadPercentile(double p) {
    return SwitchGaps.percentile(overheadMs(), p);
  }

  /** The share of the tasks' wall time that was overhead; NaN without tasks. */
  public double overheadFraction() {
    long wall = wallMs.stream().mapToLong(Long::longValue).sum();
    long over = overheadMs().stream().mapToLong(Long::longValue).sum();
    return wall == 0 ? Double.NaN : (double) over / wall;
  }
}
