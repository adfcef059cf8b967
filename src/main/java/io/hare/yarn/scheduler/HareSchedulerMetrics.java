package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.annotation.Metric;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;
import org.apache.hadoop.metrics2.lib.MutableRate;

/**
 * Hare's own metrics, a metrics2 source {@value #NAME} in context {@code yarn} (JMX bean
 * {@code Hadoop:service=ResourceManager,name=HareSchedulerMetrics}, and every configured sink):
 * GPU tasks pending (outstanding one-GPU asks of jobs the policy knows) and running, GPUs free
 * and used per GPU type ({@code GpusFree<Type>}, {@code GpusUsed<Type>}, one gauge pair per type
 * the cluster has had), re-plans ({@code Replans} and {@code ReplanTime}, a rate in ms: count and
 * average; {@code ReplanSnapshotTime}, in microseconds, the part a split re-plan takes in a
 * heartbeat), applications rejected for malformed Hare tags, nodes silent past the liveness
 * grace ({@code SilentNodes}), and {@code StandbysSkippedIsolated}: task containers of jobs that
 * take standbys placed (or parking refused) on nodes whose GPUs YARN isolates per container,
 * where standbys are not used; containers of several GPUs running ({@code MultiGpuContainers})
 * and the GPUs held idle for one that waits ({@code GpusReserved}, {@link MultiGpuContainers}).
 *
 * <p>Gauges are set by the scheduler after each scheduling pass; the re-plan rate is added from
 * the re-planning thread (metrics2 mutable metrics are thread-safe).
 */
@Metrics(name = HareSchedulerMetrics.NAME, about = "Hare GPU scheduler", context = "yarn")
public final class HareSchedulerMetrics implements ReplanListener {

  public static final String NAME = "HareSchedulerMetrics";

  final MetricsRegistry registry = new MetricsRegistry(NAME).setContext("yarn");

  @Metric("GPU tasks asked for and not yet placed")
  MutableGaugeInt pendingGpuTasks;

  @Metric("GPU task containers running")
  MutableGaugeInt runningGpuTasks;

  @Metric("Re-plans run")
  MutableCounterLong replans;

  @Metric("Re-plan time in ms: the solve, or the whole re-plan of a policy that does not split")
  MutableRate replanTime;

  @Metric("Re-plan snapshot time in microseconds, taken in a heartbeat's pass")
  MutableRate replanSnapshotTime;

  @Metric("Policy passes run (each offers every free GPU to the policy)")
  MutableCounterLong policyPasses;

  @Metric("Policy pass time in microseconds, containers made included")
  MutableRate policyPassTime;

  @Metric("Applications rejected for malformed Hare tags")
  MutableCounterLong rejectedApps;

  @Metric("GPU task containers of jobs taking standbys placed without standby or parking, as"
      + " their node isolates GPUs per container")
  MutableCounterLong standbysSkippedIsolated;

  @Metric("Nodes silent past the liveness grace: no new containers on them")
  MutableGaugeInt silentNodes;

  @Metric("Containers of more than one GPU running (of AMs without the Hare protocol)")
  MutableGaugeInt multiGpuContainers;

  @Metric("GPUs held free for a container of several GPUs that waits for its node")
  MutableGaugeInt gpusReserved;

  private final Map<GpuType, MutableGaugeInt[]> perType = new HashMap<>();
  private MetricsSystem system;

  /** Registers a new source with the default metrics system. */
  static HareSchedulerMetrics register() {
    HareSchedulerMetrics m = new HareSchedulerMetrics();
    MetricsSystem ms = DefaultMetricsSystem.instance();
    ms.register(NAME, "Hare GPU scheduler", m);
    m.system = ms;
    return m;
  }

  void unregister() {
    if (system != null) {
      system.unregisterSource(NAME);
      system = null;
    }
  }

  /** Sets the task gauges and the per-type GPU gauges ({@code counts}: type to total, free). */
  synchronized void update(int pending, int running, Map<GpuType, int[]> counts) {
    pendingGpuTasks.set(pending);
    runningGpuTasks.set(running);
    for (MutableGaugeInt[] g : perType.values()) {
      g[0].set(0);
      g[1].set(0);
    }
    counts.forEach((type, c) -> {
      MutableGaugeInt[] g = perType.computeIfAbsent(type, this::gauges);
      g[0].set(c[1]);
      g[1].set(c[0] - c[1]);
    });
  }

  private MutableGaugeInt[] gauges(GpuType type) {
    String t = type.name();
    String name = t.substring(0, 1).toUpperCase(Locale.ROOT) + t.substring(1);
    return new MutableGaugeInt[] {
        registry.newGauge("GpusFree" + name, "free GPUs of type " + t, 0),
        registry.newGauge("GpusUsed" + name, "GPUs of type " + t + " running a task", 0)};
  }

  @Override
  public void replanned(long nanos) {
    replans.incr();
    replanTime.add(Math.round(nanos / 1e6));
  }

  @Override
  public void snapshotTaken(long nanos) {
    replanSnapshotTime.add(nanos / 1000);
  }

  void passed(long nanos) {
    policyPasses.incr();
    policyPassTime.add(nanos / 1000);
  }

  /** Policy passes run since the scheduler started. */
  public long passes() {
    return policyPasses.value();
  }

  void rejected() {
    rejectedApps.incr();
  }

  void skippedStandbys() {
    standbysSkippedIsolated.incr();
  }

  void silentNodes(int n) {
    silentNodes.set(n);
  }

  void multiGpu(int running, int reserved) {
    multiGpuContainers.set(running);
    gpusReserved.set(reserved);
  }

  // --- for tests ---

  int pending() {
    return pendingGpuTasks.value();
  }

  int running() {
    return runningGpuTasks.value();
  }

  /** Free and used GPUs of a type; {0, 0} for a type never seen. */
  synchronized int[] gpus(GpuType type) {
    MutableGaugeInt[] g = perType.get(type);
    return g == null ? new int[2] : new int[] {g[0].value(), g[1].value()};
  }

  long replans() {
    return replans.value();
  }

  long rejectedApps() {
    return rejectedApps.value();
  }

  long standbysSkippedIsolated() {
    return standbysSkippedIsolated.value();
  }

  int gpusReserved() {
    return gpusReserved.value();
  }
}
