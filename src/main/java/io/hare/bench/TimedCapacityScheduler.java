package io.hare.bench;

import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;

/** YARN's CapacityScheduler, unchanged, with its heartbeat and allocate paths timed. */
public class TimedCapacityScheduler extends CapacityScheduler implements TimedScheduler {

  private final PathTimer timer = new PathTimer();

  @Override
  public PathTimer timer() {
    return timer;
  }

  @Override
  public void handle(SchedulerEvent event) {
    if (event.getType() != SchedulerEventType.NODE_UPDATE) {
      super.handle(event);
      return;
    }
    PathTimer.Start t0 = PathTimer.start();
    try {
      super.handle(event);
    } finally {
      timer.heartbeat(t0);
    }
  }

  @Override
  public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
      List<SchedulingRequest> schedulingRequests, List<ContainerId> release,
      List<String> blacklistAdditions, List<String> blacklistRemovals,
      ContainerUpdates updateRequests) {
    PathTimer.Start t0 = PathTimer.start();
    try {
      return super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions,
          blacklistRemovals, updateRequests);
    } finally {
      timer.allocate(t0);
    }
  }
}
