package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.nodelabels.NodeAttributesManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's side of node liveness ({@link NodeLiveness}): a node silent past the grace
 * gets no new containers, its GPUs leave the policy's view ({@link NodeGpus#silenced}) and the
 * non-GPU pass places only on the heartbeating node; its running containers are YARN's to keep
 * or expire ({@code yarn.nm.liveness-monitor.expiry-interval-ms}). At its next heartbeat it is
 * back. The {@code SilentNodes} gauge follows. Not thread-safe: the scheduler's lock.
 */
final class NodeWatch {

  private static final Logger LOG = LoggerFactory.getLogger(NodeWatch.class);

  private final NodeLiveness liveness;
  private final NodeGpus gpus;
  private final HareSchedulerMetrics metrics;

  NodeWatch(long graceMs, NodeGpus gpus, HareSchedulerMetrics metrics) {
    this.liveness = new NodeLiveness(graceMs);
    this.gpus = gpus;
    this.metrics = metrics;
  }

  /** A new grace, from the next check on. */
  void setGraceMs(long ms) {
    liveness.setGraceMs(ms);
  }

  /** Node {@code id} registered at {@code nowMs}. */
  void added(NodeId id, long nowMs) {
    liveness.heard(id, nowMs);
  }

  /** Node {@code id} left the cluster. */
  void removed(NodeId id) {
    gpus.removed(id);
    liveness.removed(id);
    metrics.silentNodes(liveness.silentCount());
  }

  /** A heartbeat of {@code node} (null: a late event of a removed node) at {@code nowMs}. */
  void heard(NodeId id, FiCaSchedulerNode node, long nowMs, NodeAttributesManager attributes) {
    if (node != null && liveness.heard(id, nowMs)) {
      gpus.back(node, attributes);
      metrics.silentNodes(liveness.silentCount());
      LOG.info("node {} heartbeats again: it takes new containers", id);
    }
  }

  /** Takes the nodes silent past the grace by {@code nowMs} out of the GPU view, each once. */
  void silence(long nowMs, Function<NodeId, FiCaSchedulerNode> nodes, long graceMs) {
    for (NodeId id : liveness.fallenSilent(nowMs)) {
      FiCaSchedulerNode node = nodes.apply(id);
      if (node != null) {
        gpus.silenced(node);
      }
      metrics.silentNodes(liveness.silentCount());
      LOG.warn("node {} has not heartbeated for over {} ms ({}): no new containers on it until"
          + " it does", id, graceMs, SchedulerKeys.NODE_LIVENESS_GRACE_MS);
    }
  }

  boolean silent(NodeId id) {
    return liveness.silent(id);
  }

  int silentCount() {
    return liveness.silentCount();
  }
}
