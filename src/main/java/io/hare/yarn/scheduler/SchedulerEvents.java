package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerPreemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAttributesUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN's scheduler events ({@link HareScheduler#handle}), each handed to the scheduler method
 * that serves it: nodes, applications and attempts, container ends. An event type Hare does not
 * expect is logged and ignored.
 *
 * <p>Threading: called on the RM's scheduler event thread. The dispatch holds no lock of its own;
 * each method it calls takes the locks it takes when YARN calls it directly (the scheduler's
 * monitor for nodes, applications and container ends). A container marked for preemption takes
 * only its attempt's write lock, as an allocate call does.
 */
final class SchedulerEvents {

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerEvents.class);

  private SchedulerEvents() {}

  /** Serves {@code event} on {@code s}. */
  static void dispatch(HareScheduler s, SchedulerEvent event) {
    switch (event.getType()) {
      case NODE_ADDED -> {
        NodeAddedSchedulerEvent e = (NodeAddedSchedulerEvent) event;
        s.addNode(e.getAddedRMNode());
        s.recoverContainersOnNode(e.getContainerReports(), e.getAddedRMNode());
      }
      case NODE_REMOVED -> s.removeNode(((NodeRemovedSchedulerEvent) event).getRemovedRMNode());
      case NODE_RESOURCE_UPDATE -> {
        NodeResourceUpdateSchedulerEvent e = (NodeResourceUpdateSchedulerEvent) event;
        s.updateNodeResource(e.getRMNode(), e.getResourceOption());
        s.refreshNodeGpus(e.getRMNode().getNodeID());
      }
      case NODE_ATTRIBUTES_UPDATE -> s.nodeAttributesUpdated(
          ((NodeAttributesUpdateSchedulerEvent) event).getUpdatedNodeToAttributes());
      case NODE_UPDATE -> s.nodeUpdate(((NodeUpdateSchedulerEvent) event).getRMNode());
      case APP_ADDED -> {
        AppAddedSchedulerEvent e = (AppAddedSchedulerEvent) event;
        s.addApplication(e.getApplicationId(), e.getQueue(), e.getUser(), e.getIsAppRecovering(),
            e.isUnmanagedAM());
      }
      case APP_REMOVED -> {
        AppRemovedSchedulerEvent e = (AppRemovedSchedulerEvent) event;
        s.removeApplication(e.getApplicationID(), e.getFinalState());
      }
      case APP_ATTEMPT_ADDED -> {
        AppAttemptAddedSchedulerEvent e = (AppAttemptAddedSchedulerEvent) event;
        s.addApplicationAttempt(e.getApplicationAttemptId(),
            e.getTransferStateFromPreviousAttempt(), e.getIsAttemptRecovering());
      }
      case APP_ATTEMPT_REMOVED -> {
        AppAttemptRemovedSchedulerEvent e = (AppAttemptRemovedSchedulerEvent) event;
        s.removeAttempt(e.getApplicationAttemptID(), e.getFinalAttemptState(),
            e.getKeepContainersAcrossAppAttempts());
      }
      case CONTAINER_EXPIRED -> {
        ContainerId id = ((ContainerExpiredSchedulerEvent) event).getContainerId();
        s.completedContainer(s.getRMContainer(id),
            SchedulerUtils.createAbnormalContainerStatus(id, SchedulerUtils.EXPIRED_CONTAINER),
            RMContainerEventType.EXPIRE);
      }
      case RELEASE_CONTAINER -> {
        RMContainer c = ((ReleaseContainerEvent) event).getContainer();
        s.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
            SchedulerUtils.RELEASED_CONTAINER), RMContainerEventType.RELEASED);
      }
      // a node's resources cut below what runs there (an admin's updateNodeResource, or YARN
      // shrinking a node it decommissions): asked back first, killed once its timeout passed,
      // as CapacityScheduler and FairScheduler do
      case MARK_CONTAINER_FOR_PREEMPTION -> {
        ContainerPreemptEvent e = (ContainerPreemptEvent) event;
        markForPreemption(s, e.getAppId(), e.getContainer());
      }
      case MARK_CONTAINER_FOR_KILLABLE -> {
        RMContainer c = ((ContainerPreemptEvent) event).getContainer();
        s.completedContainer(c, SchedulerUtils.createPreemptedContainerStatus(c.getContainerId(),
            SchedulerUtils.PREEMPTED_CONTAINER), RMContainerEventType.KILL);
      }
      // node labels (partitions) are not part of Hare's model; the RM sends this event whenever
      // an admin changes labels or attributes, so it is normal, not an error
      case NODE_LABELS_UPDATE -> LOG.debug("node labels updated; Hare ignores node labels");
      default -> LOG.error("Hare scheduler: unexpected event {}; ignored", event.getType());
    }
  }

  /** Under the attempt's write lock only, as an allocate call takes it. */
  private static void markForPreemption(HareScheduler s, ApplicationAttemptId id,
      RMContainer c) {
    HareAppAttempt attempt = HareAppAttempt.of(s.getApplicationAttempt(id));
    if (attempt != null) {
      LOG.info("container {} of {} marked for preemption: its node's resources were cut; the AM"
          + " is asked to give it back", c.getContainerId(), id);
      attempt.markContainerForPreemption(c.getContainerId());
    }
  }
}
