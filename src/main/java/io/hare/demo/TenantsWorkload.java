package io.hare.demo;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.queues.QueueShare;
import io.hare.core.queues.QueueShares;
import io.hare.embedded.EmbeddedCluster;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workload of {@code hare demo --tenants}: two teams share the cluster through two queues
 * with different GPU guarantees, {@code team-a} 0.6 and {@code team-b} 0.4 of the GPUs (3 and 2
 * of the demo's 5, whole GPUs, since the scheduler rounds a guarantee down to whole GPUs), each
 * submitting a stream of Hare jobs, while a stock distributedshell ({@code sleep} in containers
 * without GPUs) runs beside them in {@code default}, which keeps no guarantee.
 *
 * <p>Jobs alternate between the queues. Each team's jobs are wider than its guarantee
 * (team-a's 3 or 4 tasks a round against 3 GPUs, team-b's 3 against 2) and come close together,
 * so that both queues have GPU tasks waiting at the same time for most of the run: those
 * contended windows are where a guarantee has to hold ({@link ContendedShares}).
 */
public final class TenantsWorkload {

  public static final String TEAM_A = "team-a";
  public static final String TEAM_B = "team-b";
  /** The queues' guaranteed GPU shares, unless {@code -D} gives others. */
  public static final Map<String, Double> SHARES = shares();
  /** Hare jobs by default ({@code --jobs}). */
  public static final int DEFAULT_JOBS = 6;
  /** Time between two submissions by default ({@code --gap-ms}). */
  public static final long DEFAULT_GAP_MS = 1000;
  /** The share of its contended guaranteed GPU-seconds each queue should get. */
  public static final double TARGET = 0.9;
  /** How long each container of the stock application sleeps, s. */
  public static final int SHELL_SLEEP_S = 30;
  /** The stock application's name. */
  public static final String SHELL = "hare-demo-shell";

  /** Jobs in submission order; more jobs repeat them with new seeds. */
  private static final List<DemoJob> TEMPLATE = List.of(
      new DemoJob("a-graphsage", DemoModel.GRAPHSAGE, 1, 3, 4, 0, 11, TEAM_A),
      new DemoJob("b-transformer", DemoModel.TRANSFORMER, 2, 3, 3, 0, 12, TEAM_B),
      new DemoJob("a-resnet50", DemoModel.RESNET50, 2, 3, 3, 0, 13, TEAM_A),
      new DemoJob("b-graphsage", DemoModel.GRAPHSAGE, 1, 3, 3, 0, 14, TEAM_B),
      new DemoJob("a-lstm", DemoModel.LSTM, 1, 2, 4, 0, 15, TEAM_A),
      new DemoJob("b-lstm", DemoModel.LSTM, 3, 2, 3, 0, 16, TEAM_B));

  private TenantsWorkload() {}

  private static Map<String, Double> shares() {
    Map<String, Double> s = new LinkedHashMap<>();
    s.put(TEAM_A, 0.6);
    s.put(TEAM_B, 0.4);
    return java.util.Collections.unmodifiableMap(s);
  }

  /** The first {@code n} jobs, one every {@code gapMs}, alternating between the queues. */
  public static List<DemoJob> jobs(int n, long gapMs) {
    return DemoWorkload.cycle(TEMPLATE, n, gapMs);
  }

  /**
   * The stock application beside the jobs: a distributedshell of two containers sleeping
   * {@code sleepS} each, in {@code default}, submitted with the second job.
   */
  public static List<StockApplication> beside(long gapMs, int sleepS) {
    return List.of(new DistributedShellApp(SHELL, "default", gapMs, 2, sleepS));
  }

  /**
   * The scheduler settings of the two queues, with the guarantees of {@link #SHARES} unless
   * {@code given} (the user's {@code -D}) sets them; given settings win.
   */
  public static Map<String, String> schedulerSettings(Map<String, String> given) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(SchedulerKeys.QUEUES, String.join(",", SHARES.keySet()));
    SHARES.forEach((q, s) -> {
      // a queue the user guarantees GPU types takes no fleet share (the two do not mix)
      if (given.keySet().stream().noneMatch(k -> k.startsWith(guaranteeKey(q) + "."))) {
        out.put(guaranteeKey(q), Double.toString(s));
      }
    });
    out.putAll(given);
    return out;
  }

  /**
   * The guaranteed share of each team's queue in {@code queues} on {@code cluster}: its fleet
   * share, or for a queue guaranteed GPU types, its guaranteed GPUs of those types over the
   * cluster's GPUs (the report then counts the GPU-seconds it got of any type against them).
   */
  public static Map<String, Double> shares(QueueShares queues,
      List<EmbeddedCluster.Node> cluster) {
    Map<GpuType, Integer> counts = new TreeMap<>();
    int gpus = 0;
    for (EmbeddedCluster.Node n : cluster) {
      counts.merge(GpuType.of(n.gpuType()), n.gpus(), Integer::sum);
      gpus += n.gpus();
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (String q : SHARES.keySet()) {
      QueueShare s = queues.queues().get(q);
      out.put(q, s == null ? 0.0 : s.perType() ? (double) s.guaranteedGpus(counts) / gpus
          : s.guaranteedShare());
    }
    return out;
  }

  static String guaranteeKey(String queue) {
    return SchedulerKeys.QUEUE_PREFIX + queue + ".guaranteed-gpu-share";
  }
}
