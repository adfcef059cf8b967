package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * A node of the Hare scheduler: YARN's {@link FiCaSchedulerNode} (FifoScheduler's code, which
 * the RM's web UI and REST reach, casts nodes to it), except that inside a {@link FifoPass} its
 * unallocated resource reads as its negative part only: zero where something is free, the
 * over-commitment where the node is over-committed. FifoScheduler then skips its placement pass
 * (it runs only when the node has at least the minimum allocation free), while YARN's
 * over-commit handling in the same call sees exactly what it would see otherwise (it asks only
 * whether and by how much a resource is negative). The node's own bookkeeping reads its field,
 * not this getter.
 */
final class HareNode extends FiCaSchedulerNode {

  HareNode(RMNode node) {
    super(node, false);
  }

  @Override
  public Resource getUnallocatedResource() {
    Resource r = super.getUnallocatedResource();
    return FifoPass.active() ? Resources.componentwiseMin(r, Resources.none()) : r;
  }
}
