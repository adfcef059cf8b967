package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.yarn.scheduler.standby.StandbySwitching;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * Hare's placement, which replaces FifoScheduler's ({@link FifoPass}). At a node's heartbeat the
 * scheduler runs, in order: the non-GPU asks on that node ({@link #nonGpu}); the cluster's GPUs
 * ({@link #gpus}: nodes silent past the grace leave the offer, multi-GPU containers take their
 * GPUs first, then the policy's one-GPU tasks get their containers, or a standby its GPU); the
 * node's standbys ({@link #standbys}). An allocate call that parks a container runs
 * {@link #gpus} alone. After either, {@link #publish} sets the queue's available resources and
 * Hare's gauges. Each container made counts in {@code used}, the scheduler's resources of live
 * containers (FifoScheduler's counter, which its headroom and queue metrics read).
 *
 * <p>Not thread-safe: called under the scheduler's monitor.
 */
final class HarePass {

  private final Resource used;
  private final Function<ApplicationId, HareAppAttempt> attempts;
  private final Function<NodeId, FiCaSchedulerNode> nodes;
  private final NonGpuAsks nonGpuAsks;
  private final GpuReserve gpuReserve;
  private final GpuInventory inventory;
  private final MultiGpuContainers multiGpu;
  private final GpuTasks gpuTasks;
  private final PolicyHost host;
  private final NodeWatch liveness;
  private final NodeGpus nodeGpus;
  private final HareQueues queues;
  private final HareSchedulerMetrics metrics;
  private long metricsStamp = -1;
  private long metricsPending = -1;

  /**
   * @param used the scheduler's resources of live containers, which the pass adds to
   * @param attempts an application's current attempt, null if none
   * @param nodes a node the scheduler tracks, null if none
   */
  HarePass(Resource used, Function<ApplicationId, HareAppAttempt> attempts,
      Function<NodeId, FiCaSchedulerNode> nodes, NonGpuAsks nonGpuAsks, GpuReserve gpuReserve,
      GpuInventory inventory, MultiGpuContainers multiGpu, GpuTasks gpuTasks, PolicyHost host,
      NodeWatch liveness, NodeGpus nodeGpus, HareQueues queues, HareSchedulerMetrics metrics) {
    this.used = used;
    this.attempts = attempts;
    this.nodes = nodes;
    this.nonGpuAsks = nonGpuAsks;
    this.gpuReserve = gpuReserve;
    this.inventory = inventory;
    this.multiGpu = multiGpu;
    this.gpuTasks = gpuTasks;
    this.host = host;
    this.liveness = liveness;
    this.nodeGpus = nodeGpus;
    this.queues = queues;
    this.metrics = metrics;
  }

  /**
   * The non-GPU asks placed on {@code node}, FIFO, keeping its reserve for its free GPUs
   * ({@link GpuReserve}).
   */
  void nonGpu(FiCaSchedulerNode node) {
    for (RMContainer c : nonGpuAsks.place(attempts, node,
        gpuReserve.on(node, inventory.freeCountOn(node.getNodeID())), queues)) {
      Resources.addTo(used, c.getAllocatedResource());
    }
  }

  /** Readiness brought up to date and the policy's containers made, at {@code nowMs}. */
  void gpus(long nowMs, long livenessGraceMs) {
    liveness.silence(nowMs, nodes, livenessGraceMs);
    // before the policy: a GPU held for a multi-GPU container is not offered
    for (RMContainer c : multiGpu.place(attempts, nodes,
        n -> liveness.silent(n) || nodeGpus.draining(n))) {
      Resources.addTo(used, c.getAllocatedResource());
    }
    long passes = host.passes();
    long t0 = System.nanoTime();
    for (RMContainer c : gpuTasks.schedule(attempts, nodes, nowMs)) {
      Resources.addTo(used, c.getAllocatedResource());
    }
    if (host.passes() != passes) {
      metrics.passed(System.nanoTime() - t0);
    }
    Resources.addTo(used, gpuTasks.takeGrowth()); // standbys given their GPU, parked ones not
  }

  /**
   * The standbys made on {@code node} ({@link GpuTasks#prelaunch}).
   *
   * @return the containers to kill: standbys no longer needed, and those whose parking was
   *     refused
   */
  List<RMContainer> standbys(FiCaSchedulerNode node, long nowMs, boolean draining) {
    StandbySwitching.Prelaunch p = gpuTasks.prelaunch(attempts, node, nowMs, draining);
    for (RMContainer c : p.made()) {
      Resources.addTo(used, c.getAllocatedResource());
    }
    return p.unneeded();
  }

  /** The queue's available resources and Hare's gauges, after containers were made. */
  void publish(Resource cluster) {
    queues.rootMetrics().setAvailableResourcesToQueue(Resources.subtract(cluster, used));
    updateGauges();
  }

  /** Hare's gauges, when GPUs or pending tasks changed (a pass over the GPUs otherwise). */
  private void updateGauges() {
    long pending = host.pendingTasks();
    if (inventory.stamp() != metricsStamp || pending != metricsPending) {
      metricsStamp = inventory.stamp();
      metricsPending = pending;
      Map<GpuType, int[]> counts = inventory.counts();
      metrics.update((int) Math.min(Integer.MAX_VALUE, pending), gpuTasks.runningCount(),
          counts);
      Map<GpuType, Integer> totals = new TreeMap<>();
      counts.forEach((t, c) -> totals.put(t, c[0]));
      queues.gpus(totals);
      metrics.multiGpu(multiGpu.runningCount(), multiGpu.reservedGpus());
    }
  }
}
