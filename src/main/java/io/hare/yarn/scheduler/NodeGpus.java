package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.nodelabels.NodeAttributesManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@link GpuInventory} in step with YARN's node events: a node's GPU count from its
 * total {@code yarn.io/gpu}, its type and whether YARN isolates its GPUs per container
 * ({@link io.hare.yarn.GpuDevices#ISOLATION_ATTRIBUTE}) from its attributes
 * ({@link GpuTypeResolver}), read from the attributes manager when the node registers or changes
 * resources, and from the event itself on {@code NODE_ATTRIBUTES_UPDATE} (only the
 * CapacityScheduler handles that event in YARN; every other scheduler must do it itself).
 * Called under the scheduler's lock.
 */
final class NodeGpus {

  private static final Logger LOG = LoggerFactory.getLogger(NodeGpus.class);
  /**
   * The most GPUs Hare serves on one node. Hare keeps an object per GPU; a NodeManager that
   * reports billions (a misconfiguration) would run the RM out of memory. Real nodes have 8 or
   * 16 GPUs, a few dozen with MIG slices: a node beyond this is taken as misconfigured and
   * offers no GPUs.
   */
  static final int MAX_GPUS_PER_NODE = 1024;

  private final GpuInventory inventory;
  private final GpuTypeResolver resolver;
  private final PolicyHost host;
  /** Nodes silent past the liveness grace: they count as having no GPUs. */
  private final Set<NodeId> silent = new HashSet<>();
  /** Nodes YARN is decommissioning gracefully: they count as having no GPUs. */
  private final Set<NodeId> draining = new HashSet<>();

  NodeGpus(GpuInventory inventory, GpuTypeResolver resolver, PolicyHost host) {
    this.inventory = inventory;
    this.resolver = resolver;
    this.host = host;
  }

  /** The node registered or its resources changed: re-read its count and attributes. */
  void refresh(FiCaSchedulerNode node, NodeAttributesManager attributes) {
    String hostName = node.getNodeID().getHost();
    Collection<NodeAttribute> a = attributes == null ? List.of()
        : attributes.getAttributesForNode(hostName).keySet();
    set(node, resolver.resolve(hostName, a), resolver.isolated(hostName, a));
  }

  /** The node's attributes are now {@code attributes} (the full set). */
  void attributesChanged(FiCaSchedulerNode node, Collection<NodeAttribute> attributes) {
    String host = node.getNodeID().getHost();
    set(node, resolver.resolve(host, attributes), resolver.isolated(host, attributes));
  }

  /**
   * {@code NODE_ATTRIBUTES_UPDATE}: the full attribute sets of the hosts in {@code byHost}, for
   * every node of each host; the nodes keep them too, for placement constraints.
   */
  void attributesUpdated(Map<String, Set<NodeAttribute>> byHost,
      ClusterNodeTracker<FiCaSchedulerNode> nodes) {
    byHost.forEach((hostName, attributes) -> {
      for (NodeId id : nodes.getNodeIdsByResourceName(hostName)) {
        FiCaSchedulerNode node = nodes.getNode(id);
        if (node != null) {
          node.updateNodeAttributes(attributes);
          attributesChanged(node, attributes);
        }
      }
    });
  }

  /**
   * At each heartbeat: whether YARN is decommissioning the node gracefully
   * ({@code yarn rmadmin -refreshNodes -g}). A draining node counts as having no GPUs, as a
   * silent one: its free GPUs leave now and its busy ones when their task ends, so nothing new
   * starts there, as CapacityScheduler places nothing on a node that is not RUNNING. YARN's own
   * shrinking of such a node to what it has allocated comes an event later, after this
   * heartbeat's pass. A node recommissioned is re-read as at registration.
   *
   * @return whether the node is draining
   */
  boolean draining(FiCaSchedulerNode node, boolean decommissioning,
      NodeAttributesManager attributes) {
    NodeId id = node.getNodeID();
    if (decommissioning && draining.add(id)) {
      LOG.info("node {} is being decommissioned: Hare places nothing new on it and asks its warm"
          + " containers back at their tasks' ends", id);
      recount(node);
    } else if (!decommissioning && draining.remove(id)) {
      LOG.info("node {} is no longer being decommissioned", id);
      refresh(node, attributes);
    }
    return decommissioning;
  }

  /** Whether YARN is decommissioning the node gracefully, as of its last heartbeat. */
  boolean draining(NodeId id) {
    return draining.contains(id);
  }

  void removed(NodeId id) {
    silent.remove(id);
    draining.remove(id);
    inventory.removeNode(id);
    host.markDirty();
  }

  /**
   * The node fell silent ({@link NodeLiveness}): it counts as having no GPUs, so the policy is
   * offered none of them and plans without them. As when an admin shrinks a node, its free GPUs
   * leave now and its busy ones when their task ends; resource and attribute changes meanwhile
   * take effect when it is back.
   */
  void silenced(FiCaSchedulerNode node) {
    silent.add(node.getNodeID());
    recount(node);
  }

  /** The node's GPUs counted again (none while silent or draining), its type and isolation kept. */
  private void recount(FiCaSchedulerNode node) {
    GpuType type = inventory.typeOf(node.getNodeID());
    if (type != null) {
      set(node, type, inventory.isolated(node.getNodeID()));
    }
  }

  /** The silent node heartbeated: its GPUs count again, re-read as at registration. */
  void back(FiCaSchedulerNode node, NodeAttributesManager attributes) {
    silent.remove(node.getNodeID());
    refresh(node, attributes);
  }

  private void set(FiCaSchedulerNode node, GpuType type, boolean isolated) {
    long reported = Gpus.of(node.getTotalResource());
    if (reported > MAX_GPUS_PER_NODE) {
      LOG.error("node {} reports yarn.io/gpu={}, more than the {} GPUs Hare serves on one node:"
          + " it gets no GPU containers until its NodeManager reports a real count (check"
          + " yarn.nodemanager.resource-plugins and yarn.nodemanager.resource.yarn.io/gpu on it)",
          node.getNodeID(), reported, MAX_GPUS_PER_NODE);
    }
    int gpus = silent.contains(node.getNodeID()) || draining.contains(node.getNodeID())
        || reported > MAX_GPUS_PER_NODE ? 0 : (int) reported;
    GpuType before = inventory.typeOf(node.getNodeID());
    boolean wasIsolated = inventory.isolated(node.getNodeID());
    inventory.setNode(node.getNodeID(), gpus, type);
    inventory.setIsolated(node.getNodeID(), isolated);
    if (gpus > 0 && (!type.equals(before) || isolated != wasIsolated)) {
      LOG.info("node {}: {} GPUs of type {}, {}", node.getNodeID(), gpus, type, isolated
          ? "isolated per container by YARN (the NodeManager assigns devices)"
          : "not isolated (Hare assigns each GPU container a device index)");
    }
    host.markDirty();
  }
}
