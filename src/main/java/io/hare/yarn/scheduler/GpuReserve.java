package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * What a GPU node keeps free for the tasks of its free GPUs: a container without a GPU (other
 * than an ApplicationMaster) is placed on a node only if the node keeps, besides, this much
 * memory and vcores per free GPU. Otherwise a large MapReduce or Spark job takes the memory and
 * vcores of the GPU nodes, and their GPUs idle while GPU tasks wait. ApplicationMasters are left
 * out: they are few and small, and on a cluster of GPU nodes only, a reserve that kept them off
 * would keep every job from starting.
 *
 * <p>Per GPU, the reserve is the configured memory and vcores, each of which may be
 * {@code auto} (-1): the largest one-GPU task container asked for since the scheduler started,
 * but never more than the node's share per GPU (its total over its GPUs), so one job's outsized
 * tasks cannot close a node to all other work. Before any GPU ask (a restarted RM, an idle
 * cluster) it is the scheduler's minimum allocation: YARN raises every ask to at least that, so
 * no GPU task can need less, and the first GPU job after a restart does not find its nodes
 * filled by work that came first. Not thread-safe apart from {@link #asked}: the scheduler's
 * lock.
 */
final class GpuReserve {

  /** A configured value that means: from the asks seen. */
  static final long AUTO = -1;

  private final long memoryMb;
  private final long vcores;
  private volatile Resource largestTask;

  /** @param minimum the scheduler's minimum allocation: the auto reserve's floor */
  GpuReserve(long memoryMb, long vcores, Resource minimum) {
    this.memoryMb = memoryMb;
    this.vcores = vcores;
    this.largestTask = Resources.createResource(minimum.getMemorySize(),
        minimum.getVirtualCores());
  }

  /** A one-GPU task container of {@code size} was asked for. Any thread. */
  synchronized void asked(Resource size) {
    Resource l = largestTask;
    if (size.getMemorySize() > l.getMemorySize() || size.getVirtualCores() > l.getVirtualCores()) {
      largestTask = Resources.createResource(Math.max(size.getMemorySize(), l.getMemorySize()),
          Math.max(size.getVirtualCores(), l.getVirtualCores()));
    }
  }

  /** What {@code node} keeps for its {@code freeGpus} free GPUs now. */
  Resource on(FiCaSchedulerNode node, int freeGpus) {
    if (freeGpus <= 0) {
      return Resources.none();
    }
    Resource total = node.getTotalResource();
    long gpus = Math.max(1, Gpus.of(total));
    long mem = memoryMb != AUTO ? memoryMb
        : Math.min(largestTask.getMemorySize(), total.getMemorySize() / gpus);
    long cores = vcores != AUTO ? vcores
        : Math.min(largestTask.getVirtualCores(), total.getVirtualCores() / gpus);
    return Resources.createResource(mem * freeGpus, (int) Math.min(Integer.MAX_VALUE,
        cores * freeGpus));
  }
}
