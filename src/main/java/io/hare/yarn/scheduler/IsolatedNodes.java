package io.hare.yarn.scheduler;

import io.hare.yarn.GpuDevices;
import java.util.HashSet;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where standby and parked containers may be used, and which device a GPU container is told.
 * YARN's GPU plugin assigns devices when a container launches and ignores resource increases and
 * decreases: on a node whose GPUs it isolates ({@link GpuDevices#ISOLATION_ATTRIBUTE}) a promoted
 * standby would have no device and a parked container would keep its own while the scheduler
 * gives "its" GPU to another container. So with standbys on, a task container there is not made
 * parkable and no standby is made there: each such container is counted ({@code skipped}) and
 * the first on each node is logged. Not thread-safe: the scheduler's lock.
 */
final class IsolatedNodes {

  private static final Logger LOG = LoggerFactory.getLogger(IsolatedNodes.class);

  private final GpuInventory inventory;
  private final Runnable skipped;
  private final Set<NodeId> logged = new HashSet<>();

  /** @param skipped called for each task container that goes without standbys for isolation */
  IsolatedNodes(GpuInventory inventory, Runnable skipped) {
    this.inventory = inventory;
    this.skipped = skipped;
  }

  /** Whether YARN isolates the GPUs of {@code node}: then no standby is made nor promoted there. */
  boolean isolated(NodeId node) {
    return inventory.isolated(node);
  }

  /**
   * A task container of a job that takes standbys (standbys on) was made on isolated
   * {@code node} without the standby protocol, or its parking was refused there: counted, and
   * logged for the first on each node.
   */
  void skipped(NodeId node) {
    skipped.run();
    if (logged.add(node)) {
      LOG.info("node {}: YARN isolates its GPUs per container, so standby and parked containers"
          + " are not used there (YARN assigns a device only at launch); its tasks start in new"
          + " containers", node);
    }
  }

  /** The device a GPU container on {@code gpu} is told: its index; none on an isolated node. */
  OptionalInt device(YarnGpu gpu) {
    return inventory.isolated(gpu.nodeId()) ? OptionalInt.empty() : OptionalInt.of(gpu.index());
  }
}
