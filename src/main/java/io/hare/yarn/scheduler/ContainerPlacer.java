package io.hare.yarn.scheduler;

import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an ask of an attempt into a container on a node, only if the container fits in what
 * the node has unallocated in <em>every</em> resource type ({@code yarn.io/gpu} included), so
 * no resource is ever over-committed whatever the policy decided. Also the FIFO pass for
 * non-GPU asks (ApplicationMasters and anything without GPUs), which never consults the policy.
 */
final class ContainerPlacer {

  private static final Logger LOG = LoggerFactory.getLogger(ContainerPlacer.class);

  /**
   * Whether an ask is for one-GPU tasks: then the policy decides. Containers of more GPUs are
   * {@link MultiGpuContainers}; those without a GPU go FIFO ({@link #isNonGpu}).
   */
  static boolean isGpuAsk(Resource perContainer) {
    return Gpus.of(perContainer) == 1;
  }

  /** Whether an ask is for containers without a GPU (ApplicationMasters, most of YARN's work). */
  static boolean isNonGpu(Resource perContainer) {
    return Gpus.of(perContainer) == 0;
  }

  /**
   * One container for {@code key} of {@code attempt} on {@code node}, with allocation tags
   * {@code tags} (e.g. {@link JobTags#PARKABLE}, a device: {@link io.hare.yarn.GpuDevices}).
   *
   * @return the container, or null if it does not fit, the node is blacklisted for the attempt
   *     or the ask is gone
   */
  RMContainer place(HareAppAttempt attempt, SchedulerRequestKey key, FiCaSchedulerNode node,
      Set<String> tags) {
    PendingAsk ask = attempt.pending(key);
    if (ask.getCount() <= 0) {
      return null;
    }
    Resource size = ask.getPerAllocationResource();
    NodeType locality = locality(attempt, key, node);
    if (locality == null || !Resources.fitsIn(size, node.getUnallocatedResource())
        || SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
      return null;
    }
    ContainerId id = BuilderUtils.newContainerId(attempt.getApplicationAttemptId(),
        attempt.getNewContainerId());
    Container c = BuilderUtils.newContainer(id, node.getNodeID(),
        node.getRMNode().getHttpAddress(), size, key.getPriority(), null,
        key.getAllocationRequestId());
    if (!tags.isEmpty()) {
      c.setAllocationTags(Set.copyOf(tags)); // RMContainer copies them when made
    }
    RMContainer rmContainer = attempt.allocate(locality, node, key, c);
    if (rmContainer != null) {
      node.allocateContainer(rmContainer);
    }
    return rmContainer;
  }

  /**
   * How a container for {@code key} may go on {@code node}, as YARN's locality rules read the
   * ask: off-switch (anywhere) when its ANY request relaxes locality, which Hare serves without
   * weighing where; else only on a node it names (node-local) or in a rack it names whose
   * request relaxes to the rack's nodes (rack-local); null elsewhere. The type tells YARN which
   * of the ask's requests the container takes.
   */
  static NodeType locality(HareAppAttempt attempt, SchedulerRequestKey key,
      FiCaSchedulerNode node) {
    if (attempt.getAppSchedulingInfo().canDelayTo(key, ResourceRequest.ANY)) {
      return NodeType.OFF_SWITCH;
    }
    String rack = node.getRackName();
    if (attempt.getPendingAsk(key, rack).getCount() <= 0) {
      // YARN takes a node-local container from the node's and the rack's requests; AMRMClient
      // sends both, and an ask without the rack's would fail inside YARN
      return null;
    }
    if (attempt.getPendingAsk(key, node.getNodeName()).getCount() > 0) {
      return NodeType.NODE_LOCAL;
    }
    return attempt.getAppSchedulingInfo().canDelayTo(key, rack) ? NodeType.RACK_LOCAL : null;
  }

  /**
   * A standby container ({@link io.hare.yarn.scheduler.standby.WarmStandbys}) for
   * {@code attempt} on {@code node}: its first GPU ask's memory ({@link Gpus#standby}: no GPU, no
   * vcores), taking no ask, with allocation request id 0 (no task ask uses it). It is made only
   * if the node keeps room for a task on each of its {@code freeGpus} free GPUs besides: a
   * standby must not keep another job's task off a free GPU.
   *
   * @return the container, or null if the attempt has no GPU ask, it does not fit or the node is
   *     blacklisted for the attempt
   */
  RMContainer placeStandby(HareAppAttempt attempt, FiCaSchedulerNode node, int freeGpus,
      int forDevice) {
    SchedulerRequestKey key = firstGpuAsk(attempt);
    if (key == null) {
      return null;
    }
    Resource task = attempt.pending(key).getPerAllocationResource();
    Resource size = Gpus.standby(task);
    if (!Resources.fitsIn(Resources.add(size, Resources.multiply(Gpus.without(task), freeGpus)),
        node.getUnallocatedResource())
        || SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
      return null;
    }
    ContainerId id = BuilderUtils.newContainerId(attempt.getApplicationAttemptId(),
        attempt.getNewContainerId());
    Container c = BuilderUtils.newContainer(id, node.getNodeID(),
        node.getRMNode().getHttpAddress(), size, key.getPriority(), null, 0);
    // promoted, it is a task container like others; until then its worker may get ready on the
    // device it waits for (a standby is made only where YARN does not isolate GPUs, so it sees
    // that device)
    c.setAllocationTags(Set.of(JobTags.PARKABLE, GpuDevices.standbyTag(forDevice)));
    RMContainer rmContainer = attempt.underWriteLock(() -> attempt.allocateStandby(node, key, c));
    if (rmContainer != null) {
      node.allocateContainer(rmContainer);
    }
    return rmContainer;
  }

  /** The attempt's first GPU ask with containers outstanding (by YARN's key order), or null. */
  static SchedulerRequestKey firstGpuAsk(HareAppAttempt attempt) {
    for (SchedulerRequestKey key : new ArrayList<>(attempt.getSchedulerKeys())) {
      PendingAsk ask = attempt.pending(key);
      if (ask.getCount() > 0 && isGpuAsk(ask.getPerAllocationResource())) {
        return key;
      }
    }
    return null;
  }

  /** Whether the attempt has outstanding non-GPU asks. */
  static boolean hasNonGpuAsk(HareAppAttempt a) {
    for (SchedulerRequestKey key : new ArrayList<>(a.getSchedulerKeys())) {
      PendingAsk ask = a.pending(key);
      if (ask.getCount() > 0 && isNonGpu(ask.getPerAllocationResource())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Places the attempts' non-GPU asks on {@code node} in FIFO order (attempts in application
   * order, asks by priority), as many as fit; each but an ApplicationMaster only if the node
   * keeps {@code reserve} free besides ({@link GpuReserve}), an ApplicationMaster only within
   * {@code amLimit}.
   *
   * @return containers placed
   */
  List<RMContainer> placeNonGpu(Iterable<HareAppAttempt> attempts, FiCaSchedulerNode node,
      Resource reserve, AmGate amLimit) {
    List<RMContainer> out = new ArrayList<>();
    for (HareAppAttempt a : attempts) {
      for (SchedulerRequestKey key : new ArrayList<>(a.getSchedulerKeys())) {
        PendingAsk ask = a.pending(key);
        if (ask.getCount() <= 0 || !isNonGpu(ask.getPerAllocationResource())) {
          continue;
        }
        boolean am = a.isWaitingForAMContainer();
        for (int i = ask.getCount(); i > 0; i--) {
          if (am ? !amLimit.admits(a.getApplicationId(), ask.getPerAllocationResource())
              : !Resources.fitsIn(Resources.add(ask.getPerAllocationResource(), reserve),
                  node.getUnallocatedResource())) {
            break; // AMs are at their limit, or the rest of the node is for its free GPUs
          }
          RMContainer c = place(a, key, node, Set.of());
          if (c != null && am) {
            amLimit.placed(c);
          }
          if (c == null) {
            break;
          }
          out.add(c);
        }
      }
    }
    return out;
  }
}
