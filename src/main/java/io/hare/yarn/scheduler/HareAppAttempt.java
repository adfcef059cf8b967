package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger;
import org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger.AuditConstants;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerFinishedEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/**
 * One application attempt: YARN's own bookkeeping of asks, live containers and usage
 * ({@link SchedulerApplicationAttempt}), plus allocating a container for one of its asks on a
 * node and releasing one. Mirrors {@code FifoAppAttempt} and {@link FiCaSchedulerApp} without
 * their CapacityScheduler assumptions (FiCaSchedulerApp's usage report casts the queue to a
 * CapacityScheduler queue). Locality is not honoured: every container is an off-switch
 * allocation against the ask's {@code ANY} count.
 */
final class HareAppAttempt extends SchedulerApplicationAttempt {

  HareAppAttempt(ApplicationAttemptId id, String user, Queue queue,
      AbstractUsersManager users, RMContext rmContext) {
    super(id, user, queue, users, rmContext);
  }

  /** Outstanding containers of an ask, and their size. */
  PendingAsk pending(SchedulerRequestKey key) {
    return getPendingAsk(key, ResourceRequest.ANY);
  }

  /**
   * Allocates {@code container} for the ask {@code key} on {@code node}.
   *
   * @return the container, or null if the attempt stopped or the ask is no longer outstanding
   *     (the AM may change its asks without the scheduler lock)
   */
  RMContainer allocate(SchedulerNode node, SchedulerRequestKey key, Container container) {
    writeLock.lock();
    try {
      if (isStopped || getOutstandingAsksCount(key) <= 0) {
        return null;
      }
      RMContainerImpl rmContainer = new RMContainerImpl(container, key, getApplicationAttemptId(),
          node.getNodeID(), appSchedulingInfo.getUser(), rmContext, node.getPartition());
      rmContainer.setQueueName(getQueueName());
      updateAMContainerDiagnostics(AMState.ASSIGNED, null);
      addToNewlyAllocatedContainers(node, rmContainer);
      ContainerId id = container.getId();
      liveContainers.put(id, rmContainer);
      rmContainer.setContainerRequest(
          appSchedulingInfo.allocate(NodeType.OFF_SWITCH, node, key, rmContainer));
      attemptResourceUsage.incUsed(node.getPartition(), container.getResource());
      rmContainer.handle(new RMContainerEvent(id, RMContainerEventType.START));
      RMAuditLogger.logSuccess(getUser(), AuditConstants.ALLOC_CONTAINER, "SchedulerApp",
          getApplicationId(), id, container.getResource(), getQueueName(), null);
      return rmContainer;
    } finally {
      writeLock.unlock();
    }
  }

  /** A live container ended; returns false if it was not live (already completed). */
  boolean containerCompleted(RMContainer rmContainer, ContainerStatus status,
      RMContainerEventType event, String partition) {
    writeLock.lock();
    try {
      ContainerId id = rmContainer.getContainerId();
      if (liveContainers.remove(id) == null) {
        return false;
      }
      newlyAllocatedContainers.remove(rmContainer);
      rmContainer.handle(new RMContainerFinishedEvent(id, status, event));
      Resource r = rmContainer.getContainer().getResource();
      RMAuditLogger.logSuccess(getUser(), AuditConstants.RELEASE_CONTAINER, "SchedulerApp",
          getApplicationId(), id, r, getQueueName(), null);
      queue.getMetrics().releaseResources(partition, getUser(), 1, r);
      attemptResourceUsage.decUsed(partition, r);
      lastMemoryAggregateAllocationUpdateTime = -1;
      return true;
    } finally {
      writeLock.unlock();
    }
  }
}
