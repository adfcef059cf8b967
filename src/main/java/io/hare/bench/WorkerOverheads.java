package io.hare.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What tasks cost beyond their computation, in one run of the workers bench. Per task: its wall
 * time (from when its process was started, or when its resident worker was handed it, to its
 * result written) minus its compute time, the overhead. Between two tasks of a round on the one
 * GPU: the gap from one's end to the next one's start (the report over the task channel, the
 * AM's answer, and in process mode the runner starting the next process).
 */
public record WorkerOverheads(List<TaskTime> tasks) {

  /** One task as it recorded itself; times in epoch milliseconds. */
  public record TaskTime(int round, long startMs, long endMs, long computeMs) {}

  public WorkerOverheads {
    tasks = tasks.stream().sorted(Comparator.comparingLong(TaskTime::startMs)).toList();
  }

  /** Each task's overhead: wall minus compute, never below 0 (clocks of two processes). */
  public List<Long> overheadMs() {
    List<Long> o = new ArrayList<>(tasks.size());
    for (TaskTime t : tasks) {
      o.add(Math.max(0, t.endMs() - t.startMs() - t.computeMs()));
    }
    return o;
  }

  /** The gaps between consecutive tasks of one round, which run one after another. */
  public List<Long> gapsMs() {
    List<Long> g = new ArrayList<>();
    for (int i = 1; i < tasks.size(); i++) {
      if (tasks.get(i).round() == tasks.get(i - 1).round()) {
        g.add(Math.max(0, tasks.get(i).startMs() - tasks.get(i - 1).endMs()));
      }
    }
    return g;
  }

  public int count() {
    return tasks.size();
  }

  /** The overhead's {@code p}-th percentile (nearest rank); NaN without tasks. */
  public double overheadPercentile(double p) {
    return SwitchGaps.percentile(overheadMs(), p);
  }

  /** The gaps' {@code p}-th percentile (nearest rank); NaN without two tasks in a round. */
  public double gapPercentile(double p) {
    return SwitchGaps.percentile(gapsMs(), p);
  }

  /** The share of the tasks' wall time that was overhead; NaN without tasks. */
  public double overheadFraction() {
    long wall = tasks.stream().mapToLong(t -> t.endMs() - t.startMs()).sum();
    long over = overheadMs().stream().mapToLong(Long::longValue).sum();
    return wall == 0 ? Double.NaN : (double) over / wall;
  }
}
