package io.hare.sim.report;

import io.hare.sim.QueueOutcome;
import io.hare.sim.SimResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The comparison as a plain-text table for a terminal: one row per policy in the order given,
 * columns right-aligned to their widest cell. A value that does not exist prints as {@code -}.
 *
 * <p>Columns: policy; total weighted JCT (s); ratio to the best policy and to the lower bound;
 * average and 95th-percentile JCT (s, finished jobs); makespan (s, first arrival to last
 * completion); GPU utilisation (% of GPU time computing over the makespan); jobs; unfinished
 * jobs; average and longest re-plan (ms of wall time). With an exact optimum ({@code --exact}),
 * a line under the bound's says what CP-SAT found and a column {@code x optimum} follows
 * {@code x bound}.
 *
 * <p>With several queues a second table follows: per policy and queue, its guarantee (share and
 * GPUs), jobs, unfinished jobs, total weighted JCT (and its jobs' in the single-queue run), the
 * time it waited for its guarantee (tasks
 * waiting while it held fewer GPUs than guaranteed), the GPU-seconds it lacked then and of those
 * the ones other queues held above their guarantees; and per
 * policy a line with its total weighted JCT with one queue.
 */
public final class ResultsTable {

  static final String[] HEADER = {"policy", "total wJCT s", "x best", "x bound", "avg JCT s",
      "p95 JCT s", "makespan s", "GPU util", "jobs", "unfinished", "replan avg ms",
      "replan max ms"};

  private ResultsTable() {}

  public static String format(Comparison c) {
    List<String[]> rows = new ArrayList<>();
    rows.add(withExact(c, HEADER, "x optimum"));
    boolean anyUnfinished = false;
    for (SimResult r : c.results()) {
      anyUnfinished |= r.unfinishedJobs() > 0;
      rows.add(withExact(c, new String[] {r.policy(), num(r.totalWeightedJctS(), 1),
          num(c.ratioToBest(r), 3), num(c.ratioToLowerBound(r), 3), num(r.avgJctS(), 1),
          num(r.p95JctS(), 1), num(r.makespanS(), 1), num(100 * r.gpuUtilization(), 1) + "%",
          Integer.toString(r.jobs().size()), Long.toString(r.unfinishedJobs()),
          num(r.replanAvgMs(), 2), num(r.replanMaxMs(), 2)}, num(c.ratioToExact(r), 3)));
    }
    String nl = System.lineSeparator();
    StringBuilder sb = new StringBuilder();
    sb.append("workload ").append(c.workload()).append(", ").append(c.jobs()).append(" jobs")
        .append(", cluster ").append(c.cluster()).append(", switch ").append(c.switchMs())
        .append(" ms").append(nl);
    sb.append("lower bound on total weighted JCT: ").append(num(c.lowerBoundS(), 1)).append(" s");
    if (Double.isFinite(c.criticalPathS())) {
      sb.append(" (the jobs' critical paths alone: ").append(num(c.criticalPathS(), 1))
          .append(" s)");
    }
    sb.append(nl);
    ExactOptimum e = c.exact();
    if (e != null && e.proven()) {
      sb.append("exact optimum (CP-SAT, proven in ").append(num(e.solveS(), 1)).append(" s): ")
          .append(num(e.totalWeightedJctS(), 1)).append(" s").append(nl);
    } else if (e != null) {
      sb.append("exact optimum not proven within the time limit (").append(num(e.solveS(), 1))
          .append(" s): best schedule found ").append(num(e.totalWeightedJctS(), 1))
          .append(" s, CP-SAT's bound ").append(num(e.lowerBoundS(), 1)).append(" s").append(nl);
    }
    sb.append(nl);
    align(rows, sb, nl);
    sb.append(nl).append("x best: over the smallest total weighted JCT among policies that "
        + "finished every job; x bound: over the lower bound.")
        .append(c.exact() == null ? "" : c.exact().proven() ? " x optimum: over the exact optimum."
            : " x optimum: over the best schedule CP-SAT found (not proven optimal).")
        .append(nl);
    if (anyUnfinished) {
      sb.append("Policies with unfinished jobs count only their finished jobs in the JCT "
          + "columns.").append(nl);
    }
    if (c.results().stream().anyMatch(SimResult::severalQueues)) {
      queues(c, sb, nl);
    }
    return sb.toString();
  }

  static final String[] QUEUE_HEADER = {"policy", "queue", "guarantee", "jobs", "unfinished",
      "total wJCT s", "one queue wJCT s", "guarantee wait s", "short GPU-s", "lent GPU-s"};

  /** The fleet share, or each type's share ({@code v100 1, t4 0.5}). */
  private static String guarantee(QueueOutcome q) {
    if (q.guaranteedTypeShares().isEmpty()) {
      return num(q.guaranteedShare(), 3);
    }
    List<String> each = new ArrayList<>();
    new TreeMap<>(q.guaranteedTypeShares()).forEach((t, v) -> each.add(t + " "
        + num(v, 3)));
    return String.join(", ", each);
  }

  private static void queues(Comparison c, StringBuilder sb, String nl) {
    List<String[]> rows = new ArrayList<>();
    rows.add(QUEUE_HEADER);
    for (SimResult r : c.results()) {
      for (QueueOutcome q : r.queues()) {
        rows.add(new String[] {r.policy(), q.name(),
            guarantee(q) + " (" + q.guaranteedGpus() + " GPUs)",
            Integer.toString(q.jobs()), Long.toString(q.unfinishedJobs()),
            num(q.totalWeightedJctS(), 1), num(q.singleQueueTotalWeightedJctS(), 1),
            num(q.guaranteeWaitS(), 1),
            num(q.guaranteeShortGpuS(), 1), num(q.guaranteeLentGpuS(), 1)});
      }
    }
    sb.append(nl);
    align(rows, sb, nl);
    sb.append(nl);
    for (SimResult r : c.results()) {
      double one = r.singleQueueTotalWeightedJctS();
      sb.append(r.policy()).append(": total weighted JCT ").append(num(r.totalWeightedJctS(), 1))
          .append(" s with these queues, ").append(num(one, 1)).append(" s with one queue (x")
          .append(num(one > 0 ? r.totalWeightedJctS() / one : Double.NaN, 3)).append(")")
          .append(nl);
    }
    sb.append("guarantee wait: time the queue had tasks waiting while it held fewer GPUs than "
        + "its guarantee; short GPU-s: the GPUs it lacked over that time; lent GPU-s: of those, "
        + "the ones other queues held above their own guarantees; one queue wJCT: the queue's "
        + "jobs in the single-queue run.").append(nl);
  }

  private static void align(List<String[]> rows, StringBuilder sb, String nl) {
    int[] width = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        if (i == 0) {
          sb.append(String.format(Locale.ROOT, "%-" + width[0] + "s", row[0]));
        } else {
          sb.append("  ").append(String.format(Locale.ROOT, "%" + width[i] + "s", row[i]));
        }
      }
      sb.append(nl);
    }
  }

  /** The row with {@code cell} after the x bound column when there is an exact optimum. */
  private static String[] withExact(Comparison c, String[] row, String cell) {
    if (c.exact() == null) {
      return row;
    }
    String[] r = new String[row.length + 1];
    System.arraycopy(row, 0, r, 0, 4);
    r[4] = cell;
    System.arraycopy(row, 4, r, 5, row.length - 4);
    return r;
  }

  private static String num(double v, int decimals) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
  }
}
