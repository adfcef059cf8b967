package io.hare.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hare bench scheduler}: the same workload ({@link BenchWorkload}) through each
 * scheduler in turn, in this JVM ({@link BenchCluster}), in three phases:
 *
 * <ol>
 *   <li><b>Fill</b>: every job asks for its first round at once; containers do not end, and
 *       ticks run until the cluster is full (or every ask is placed, or nothing moves for
 *       {@value #STALL_TICKS} ticks). Throughput is containers over the scheduling-path time of
 *       those ticks, including the AMs' first asks.
 *   <li><b>Warm-up</b>: containers end after their duration and rounds re-ask; not measured,
 *       so the mix of running rounds settles and the JIT has compiled the churn path.
 *   <li><b>Churn</b>: the measured steady state: throughput, and the duration of every
 *       heartbeat (p50, p99, max).
 * </ol>
 *
 * <p>With arrivals ({@link Settings#arrivalsPerTick}), new jobs arrive in every warm-up and
 * churn tick, so Hare re-plans during the churn (at most once per re-plan interval, one tick)
 * and the churn's figures include what those re-plans cost the heartbeats.
 *
 * <p>Schedulers run one after another, Hare first: the second runs in a JVM warmed by the first
 * (YARN's shared code is compiled), which if anything favours CapacityScheduler.
 */
public final class SchedulerBench {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerBench.class);

  static final int STALL_TICKS = 3;
  static final int MAX_FILL_TICKS = 100;

  /**
   * A bench: the workload's shape, how many warm-up and measured churn ticks, Hare's least
   * time between two policy passes ({@code yarn.scheduler.hare.pass.min-interval-ms}), and how
   * many jobs arrive in each warm-up and churn tick (spread over the tick), on top of the
   * shape's jobs that all arrive at the start.
   */
  public record Settings(BenchShape shape, int warmupTicks, int churnTicks,
      long passIntervalMs, int arrivalsPerTick) {
    public Settings {
      if (arrivalsPerTick < 0) {
        throw new IllegalArgumentException("arrivals per tick must be >= 0, got "
            + arrivalsPerTick);
      }
      if (warmupTicks < 0 || churnTicks < 1) {
        throw new IllegalArgumentException("warm-up ticks must be >= 0 and churn ticks >= 1,"
            + " got " + warmupTicks + " and " + churnTicks);
      }
      if (passIntervalMs < 0 || passIntervalMs > 1000) {
        throw new IllegalArgumentException("the pass interval must be 0 to 1000 ms, got "
            + passIntervalMs);
      }
    }

    public Settings(BenchShape shape, int warmupTicks, int churnTicks, long passIntervalMs) {
      this(shape, warmupTicks, churnTicks, passIntervalMs, 0);
    }

    public Settings(BenchShape shape, int warmupTicks, int churnTicks) {
      this(shape, warmupTicks, churnTicks, 0);
    }
  }

  private SchedulerBench() {}

  /** Runs each contender in turn; results in that order. */
  public static List<RunResult> run(Settings s, List<Contender> contenders) throws Exception {
    for (Contender c : contenders) {
      prime(c);
    }
    List<RunResult> out = new ArrayList<>();
    for (Contender c : contenders) {
      out.add(run(s, c));
    }
    return out;
  }

  public static RunResult run(Settings s, Contender c) throws Exception {
    QueueMetrics.clearQueueMetrics(); // per-JVM cache; each RM registers its own queues
    LOG.info("{}: starting an RM with {} nodes x {} GPUs", c.label(), s.shape().nodes(),
        s.shape().gpusPerNode());
    try (BenchCluster cl = BenchCluster.start(c, s.shape(), s.passIntervalMs())) {
      long heapNodes = HeapProbe.usedAfterGc();
      cl.submitJobs();
      LOG.info("{}: {} jobs submitted; filling", c.label(), s.shape().jobs());
      PathTimer timer = cl.timer();
      PathTimer.Snapshot s0 = timer.snapshot();
      cl.startJobs();
      long target = Math.min(s.shape().gpus(), totalFirstAsks(s.shape().jobs()));
      long filledAt = 0;
      long allocations = 0;
      PathTimer.Snapshot s1 = s0;
      int idle = 0;
      while (cl.busyGpus() < target && idle < STALL_TICKS && cl.ticks() < MAX_FILL_TICKS) {
        int got = cl.tick();
        if (got > 0) {
          allocations += got;
          s1 = timer.snapshot();
          filledAt = cl.ticks();
          idle = 0;
        } else {
          idle++;
        }
      }
      boolean filled = cl.busyGpus() >= target;
      PhaseResult fill = new PhaseResult(allocations, filledAt, s1.since(s0));
      Latency fillBeats = Latency.ofNanos(
          slice(timer.heartbeatsSince(s0.heartbeats()), s1.heartbeats() - s0.heartbeats()));
      long heapFull = HeapProbe.usedAfterGc();
      LOG.info("{}: fill placed {} containers in {} ticks; warming up for {} ticks", c.label(),
          allocations, filledAt, s.warmupTicks());
      cl.startClocks();
      cl.arriveEachTick(s.arrivalsPerTick());
      for (int i = 0; i < s.warmupTicks(); i++) {
        cl.tick();
      }
      PathTimer.Snapshot s2 = timer.snapshot();
      long churned = 0;
      for (int i = 0; i < s.churnTicks(); i++) {
        churned += cl.tick();
      }
      PathTimer.Snapshot s3 = timer.snapshot();
      PhaseResult churn = new PhaseResult(churned, s.churnTicks(), s3.since(s2));
      Latency churnBeats = Latency.ofNanos(timer.heartbeatsSince(s2.heartbeats()));
      LOG.info("{}: churn placed {} containers in {} ticks", c.label(), churned,
          s.churnTicks());
      Latency churnCpu = Latency.ofNanos(timer.heartbeatCpuSince(s2.heartbeats()));
      Latency passCpu = Latency.ofNanos(timer.passCpuSince(s2.heartbeats()));
      return new RunResult(c, fill, churn, fillBeats, churnBeats, churnCpu, passCpu,
          Latency.ofNanos(cl.replanTimes().nanos()), Latency.ofNanos(cl.replanTimes().cpuNanos()),
          Latency.ofNanos(cl.replanTimes().snapshotNanos()), heapFull - heapNodes, filled,
          cl.violations());
    }
  }

  /**
   * A throw-away run on a tiny cluster, so that class loading, static caches and the first
   * compilations of each scheduler's code (and OR-Tools' first solve for Hare) do not land in
   * the measured run's fill phase and heap figure.
   */
  public static void prime(Contender c) throws Exception {
    run(new Settings(new BenchShape(2, 2, 4, 0, 0), 1, 2), c);
  }

  /** Sum of every job's first-round tasks. */
  static long totalFirstAsks(int jobs) {
    long n = 0;
    for (int j = 0; j < jobs; j++) {
      n += BenchWorkload.tasksPerRound(j);
    }
    return n;
  }

  private static long[] slice(long[] a, int n) {
    return java.util.Arrays.copyOf(a, Math.max(0, Math.min(n, a.length)));
  }
}
