package io.hare.yarn.scheduler;

import io.hare.yarn.GpuDevices;
import java.util.OptionalInt;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * Which device a GPU container is told, and where YARN isolates GPUs per container
 * ({@link GpuDevices#ISOLATION_ATTRIBUTE}): there YARN's GPU plugin assigns the device when a
 * container launches, so the scheduler tells none, and the standbys
 * ({@link io.hare.yarn.scheduler.standby.WarmStandbys}) are not used (the plugin ignores
 * resource increases and decreases). Not thread-safe: the scheduler's lock.
 */
final class IsolatedNodes {

  private final GpuInventory inventory;

  IsolatedNodes(GpuInventory inventory) {
    this.inventory = inventory;
  }

  /** Whether YARN isolates the GPUs of {@code node}. */
  boolean isolated(NodeId node) {
    return inventory.isolated(node);
  }

  /** The device a GPU container on {@code gpu} is told: its index; none on an isolated node. */
  OptionalInt device(YarnGpu gpu) {
    return inventory.isolated(gpu.nodeId()) ? OptionalInt.empty() : OptionalInt.of(gpu.index());
  }
}
