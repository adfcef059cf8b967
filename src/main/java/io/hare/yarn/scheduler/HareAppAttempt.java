package io.hare.yarn.scheduler;

import io.hare.yarn.GpuDevices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.UpdateContainerError;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.server.api.ContainerType;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.ContainerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.AllocationTagsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttemptBase;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * One application attempt: YARN's own bookkeeping of asks, live containers and usage. It is a
 * {@link FifoAppAttempt} because {@link HareScheduler} extends {@link FifoScheduler} (for the
 * RM's REST and web UI), whose code casts every attempt to that type. Containers are allocated
 * with FifoAppAttempt's {@code allocate(OFF_SWITCH, ...)} (locality is not honoured) and
 * released with {@link FiCaSchedulerApp}'s {@code containerCompleted}. Two behaviours differ:
 *
 * <ul>
 *   <li>{@link #getResourceUsageReport()} is YARN's generic one: {@link FiCaSchedulerApp}'s casts
 *       the queue to a CapacityScheduler queue once the partition has resources.
 *   <li>{@link #isPlaceBlacklisted(String)} answers true to FifoScheduler's own placement pass,
 *       which runs inside {@code FifoScheduler.nodeUpdate} (private, memory-only, it would
 *       over-commit GPUs); see {@link FifoPass}.
 * </ul>
 */
final class HareAppAttempt extends FifoAppAttemptBase {

  private final boolean speaksHare;
  /** Containers YARN marked for preemption, not yet in an allocate response. */
  private final Set<ContainerId> preempting = new HashSet<>();

  /** @param speaksHare whether the application's AM declared the Hare protocol */
  HareAppAttempt(ApplicationAttemptId id, String user, Queue queue,
      ActiveUsersManager users, RMContext rmContext, boolean speaksHare) {
    super(id, user, queue, users, rmContext);
    this.speaksHare = speaksHare;
  }

  /** Whether the AM declared the Hare protocol ({@link io.hare.yarn.JobTags}); any thread. */
  boolean speaksHare() {
    return speaksHare;
  }

  /**
   * The progress this attempt's AM last reported in an allocate call, as YARN keeps it (its
   * RMAppAttempt: 0 before the first report, and after an RM restart until the AM's next one).
   */
  float reportedProgress() {
    RMApp app = rmContext.getRMApps().get(getApplicationId());
    RMAppAttempt attempt = app == null ? null : app.getRMAppAttempt(getApplicationAttemptId());
    return attempt == null ? 0 : attempt.getProgress();
  }

  /**
   * Every node is blacklisted for FifoScheduler's own placement ({@link FifoPass}): it skips a
   * blacklisted attempt before looking at its asks, so it places nothing.
   */
  @Override
  public boolean isPlaceBlacklisted(String resourceName) {
    return FifoPass.active() || super.isPlaceBlacklisted(resourceName);
  }

  /**
   * Runs {@code body} holding this attempt's write lock (reentrant). Take this rather than the
   * attempt's monitor around calls into YARN's attempt code, which locks in the order write
   * lock, then monitor.
   */
  <T> T underWriteLock(Supplier<T> body) {
    writeLock.lock();
    try {
      return body.get();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Refuses a container update with YARN's update error, which the AM receives in its next
   * allocate response ({@code UpdateContainerError}).
   */
  void refuseUpdate(UpdateContainerRequest update, String reason) {
    addToUpdateContainerErrors(UpdateContainerError.newInstance(reason, update));
  }

  /** Standby containers given their GPU since the AM last pulled, as resource increases. */
  private final List<Container> promoted = new ArrayList<>();
  /** The ask each promotion in {@link #promoted} took, to give back if it dies unpulled. */
  private final Map<ContainerId, ContainerRequest> promotionAsks = new HashMap<>();
  /** GPU task containers parked as standbys since the AM last pulled, as resource decreases. */
  private final List<Container> parked = new ArrayList<>();

  /**
   * A standby container ({@link io.hare.yarn.scheduler.standby.WarmStandbys}) on {@code node}:
   * allocated as FifoAppAttempt's {@code allocate} does, except that it takes no ask (it is
   * extra; the AM launches it and waits) and that its size, the ask's without the GPU, is counted
   * in the queue metrics here, which YARN's ask bookkeeping would otherwise do. Under the write
   * lock.
   *
   * @return the container, or null if the attempt has stopped
   */
  RMContainer allocateStandby(FiCaSchedulerNode node, SchedulerRequestKey key, Container c) {
    if (isStopped()) {
      return null;
    }
    RMContainerImpl rc = new RMContainerImpl(c, key, getApplicationAttemptId(), node.getNodeID(),
        getUser(), rmContext, node.getPartition());
    rc.setQueueName(getQueueName());
    addToNewlyAllocatedContainers(node, rc);
    liveContainers.put(c.getId(), rc);
    attemptResourceUsage.incUsed(node.getPartition(), c.getResource());
    queue.getMetrics().allocateResources(node.getPartition(), getUser(), 1, c.getResource(),
        false);
    rc.handle(new RMContainerEvent(c.getId(), RMContainerEventType.START));
    return rc;
  }

  /**
   * Gives standby container {@code rc} its task's full size {@code full} (the GPU) on
   * {@code node}: it takes one container of ask {@code key}, as an allocation would (so the queue
   * metrics count it as allocated from pending once), and goes to the AM at its next allocate as
   * a resource increase with a new container token (version + 1) whose allocation request id is
   * the ask's, and whose allocation tags name its device ({@link GpuDevices}; none: YARN assigns
   * it). The node is charged the difference. Under the write lock.
   *
   * @return false if the ask is gone or the attempt stopped (nothing changed)
   */
  boolean promote(RMContainer rc, FiCaSchedulerNode node, SchedulerRequestKey key,
      Resource full, OptionalInt device) {
    if (isStopped() || pending(key).getCount() <= 0) {
      return false;
    }
    Container c = rc.getContainer();
    Resource before = Resources.clone(c.getResource());
    Resource delta = Resources.subtract(full, before);
    queue.getMetrics().releaseResources(node.getPartition(), getUser(), 1, before);
    c.setResource(Resources.clone(full));
    ContainerRequest taken = appSchedulingInfo.allocate(NodeType.OFF_SWITCH, node, key, rc);
    if (taken != null) {
      promotionAsks.put(c.getId(), taken);
    }
    attemptResourceUsage.incUsed(node.getPartition(), delta);
    node.deductUnallocatedResource(delta);
    c.setAllocationRequestId(key.getAllocationRequestId());
    retag(rc, device.isPresent()
        ? GpuDevices.withDevice(c.getAllocationTags(), device.getAsInt())
        : GpuDevices.withoutDevice(c.getAllocationTags()));
    reissue(rc);
    promoted.add(c);
    return true;
  }

  /**
   * Parks GPU task container {@code rc} on {@code node}: its task ended, its AM keeps it as a
   * standby, so it gives back all but {@code small} (its memory, {@link Gpus#standby}). The
   * inverse of {@link #promote}: queue metrics count it as a standby, the attempt and the node
   * get the difference back, and the AM gets it at its next allocate as a resource decrease with
   * a new token (version + 1). Under the write lock.
   *
   * @return false if the attempt stopped (nothing changed)
   */
  boolean park(RMContainer rc, FiCaSchedulerNode node, Resource small) {
    if (isStopped()) {
      return false;
    }
    Container c = rc.getContainer();
    Resource before = Resources.clone(c.getResource());
    Resource delta = Resources.subtract(before, small);
    queue.getMetrics().releaseResources(node.getPartition(), getUser(), 1, before);
    queue.getMetrics().allocateResources(node.getPartition(), getUser(), 1, small, false);
    c.setResource(Resources.clone(small));
    attemptResourceUsage.decUsed(node.getPartition(), delta);
    // SchedulerNode's own "add back" is private: deducting the negative difference is the same
    node.deductUnallocatedResource(Resources.subtract(small, before));
    retag(rc, GpuDevices.withoutDevice(c.getAllocationTags())); // no GPU, no device
    reissue(rc);
    parked.add(c);
    return true;
  }

  /**
   * Gives {@code rc} the allocation tags {@code tags} everywhere YARN keeps them: the container
   * record (the AM's view, and what the node's release takes off the tags manager), the
   * RMContainer (what its start adds there, and the token) and, for a container already started,
   * the tags manager itself. Changing the record alone leaves the manager counting tags that
   * the release then fails to find (a WARN per tag) and never takes off the ones it counts.
   */
  private void retag(RMContainer rc, Set<String> tags) {
    Container c = rc.getContainer();
    AllocationTagsManager manager = rmContext.getAllocationTagsManager();
    if (manager != null && rc.getState() == RMContainerState.RUNNING) {
      manager.removeContainer(c.getNodeId(), c.getId(), rc.getAllocationTags());
      manager.addContainer(c.getNodeId(), c.getId(), tags);
    }
    if (rc instanceof RMContainerImpl impl) {
      impl.setAllocationTags(tags);
    }
    c.setAllocationTags(tags);
  }

  /** A new container token for {@code rc}'s changed container, one version up. */
  private void reissue(RMContainer rc) {
    Container c = rc.getContainer();
    c.setVersion(c.getVersion() + 1);
    c.setContainerToken(rmContext.getContainerTokenSecretManager().createContainerToken(
        c.getId(), c.getVersion(), c.getNodeId(), getUser(), c.getResource(), c.getPriority(),
        rc.getCreationTime(), null, rc.getNodeLabelExpression(), ContainerType.TASK,
        c.getExecutionType(), c.getAllocationRequestId(), rc.getAllocationTags()));
  }

  /** The standby containers promoted since the last call (for the AM's allocate response). */
  List<Container> pullPromoted() {
    promotionAsks.clear();
    return pull(promoted);
  }

  /**
   * Container {@code id} ended. If it is a promoted standby whose AM has not pulled the promotion
   * yet, the AM never hears of it (it sees a standby end, which ran nothing) and the ask it took
   * goes back to the attempt's asks: else that task would wait forever for an ask the AM
   * believes outstanding. Under the write lock.
   *
   * @return whether an ask went back
   */
  boolean promotionLost(ContainerId id) {
    ContainerRequest taken = promotionAsks.remove(id);
    if (taken == null) {
      return false;
    }
    promoted.removeIf(c -> c.getId().equals(id));
    recoverResourceRequestsForContainer(taken);
    return true;
  }

  /**
   * YARN marks a container for preemption (a node's resources were cut below what runs there,
   * with a timeout to give them back): the AM is asked for it in its next allocate response's
   * negotiable contract, as CapacityScheduler and FairScheduler ask, whatever protocol the AM
   * speaks. Under the attempt's write lock, as YARN's own.
   */
  @Override
  public void markContainerForPreemption(ContainerId id) {
    writeLock.lock();
    try {
      if (liveContainers.containsKey(id)) {
        preempting.add(id);
      }
    } finally {
      writeLock.unlock();
    }
  }

  /** The live containers marked for preemption since the last call; under the write lock. */
  Set<ContainerId> pullMarkedForPreemption() {
    Set<ContainerId> out = new HashSet<>();
    for (ContainerId id : preempting) {
      if (liveContainers.containsKey(id)) {
        out.add(id);
      }
    }
    preempting.clear();
    return out;
  }

  /** The containers parked since the last call (for the AM's allocate response). */
  List<Container> pullParked() {
    return pull(parked);
  }

  private static List<Container> pull(List<Container> changed) {
    List<Container> out = new ArrayList<>(changed);
    changed.clear();
    return out;
  }

  /** Outstanding containers of an ask, and their size. */
  PendingAsk pending(SchedulerRequestKey key) {
    return getPendingAsk(key, ResourceRequest.ANY);
  }

  /**
   * YARN's generic usage report ({@code SchedulerApplicationAttempt}'s, whose private
   * resource-seconds helper is redone here without its 3 s cache): usage as a share of the
   * queue (the whole cluster) and of the cluster, by the scheduler's resource calculator.
   */
  @Override
  public ApplicationResourceUsageReport getResourceUsageReport() {
    writeLock.lock();
    try {
      Resource usedNow = Resources.clone(attemptResourceUsage.getAllUsed());
      Resource reserved = Resources.clone(attemptResourceUsage.getAllReserved());
      Resource cluster = rmContext.getScheduler().getClusterResource();
      ResourceCalculator calc = rmContext.getScheduler().getResourceCalculator();
      float queuePerc = 0f;
      float clusterPerc = 0f;
      if (!calc.isAllInvalidDivisor(cluster)) {
        float queueCapacity = queue.getQueueInfo(false, false).getCapacity();
        queuePerc = finite(calc.divide(cluster, usedNow,
            Resources.multiply(cluster, queueCapacity)) * 100);
        clusterPerc = finite(calc.divide(cluster, usedNow, cluster) * 100);
      }
      Map<String, Long> preempted = new HashMap<>();
      preempted.put(ResourceInformation.MEMORY_MB.getName(), 0L);
      preempted.put(ResourceInformation.VCORES.getName(), 0L);
      return ApplicationResourceUsageReport.newInstance(liveContainers.size(),
          reservedContainers.size(), usedNow, reserved, Resources.add(usedNow, reserved),
          runningResourceSeconds(System.currentTimeMillis()), queuePerc, clusterPerc,
          preempted);
    } finally {
      writeLock.unlock();
    }
  }

  private Map<String, Long> runningResourceSeconds(long nowMs) {
    Map<String, Long> out = new HashMap<>();
    for (RMContainer c : liveContainers.values()) {
      long usedMs = nowMs - c.getCreationTime();
      for (ResourceInformation r : c.getContainer().getResource().getResources()) {
        out.merge(r.getName(), r.getValue() * usedMs / 1000, Long::sum);
      }
    }
    return out;
  }

  private static float finite(float f) {
    return Float.isNaN(f) || Float.isInfinite(f) ? 0f : f;
  }

  /** {@code a} as a Hare attempt; null for null (every attempt of the scheduler is one). */
  static HareAppAttempt of(FifoAppAttempt a) {
    return a instanceof HareAppAttempt h ? h : null;
  }
}
