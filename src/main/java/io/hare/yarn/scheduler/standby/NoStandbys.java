package io.hare.yarn.scheduler.standby;

import io.hare.yarn.scheduler.YarnGpu;
import io.hare.yarn.scheduler.YarnJob;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * Standbys off (the default): every task starts in a new container. No container is made
 * parkable, none is made ahead or promoted, and a container whose AM asks to park it ends.
 * Keeps no state; called under the scheduler's lock like {@link WarmStandbys}.
 */
public final class NoStandbys implements StandbySwitching {

  @Override
  public boolean parkable(YarnJob job, NodeId node) {
    return false;
  }

  @Override
  public void taskPlaced(YarnJob job, NodeId node) {
    // no standby is missed: none would have been made
  }

  @Override
  public RMContainer promote(FifoAppAttempt attempt, YarnJob job, FiCaSchedulerNode node,
      YarnGpu gpu) {
    return null; // no standby to promote: the task gets a new container
  }

  @Override
  public boolean park(RMContainer c, FifoAppAttempt attempt, YarnJob job, FiCaSchedulerNode node,
      long nowMs) {
    return false; // nothing to park in: the container ends
  }

  @Override
  public Prelaunch prelaunch(Function<ApplicationId, ? extends FifoAppAttempt> attempts,
      FiCaSchedulerNode node, long nowMs) {
    return new Prelaunch(List.of(), List.of()); // nothing to prelaunch, nothing waiting
  }

  @Override
  public boolean ended(ContainerId id) {
    return false; // every container is a task's
  }

  @Override
  public int count() {
    return 0;
  }

  @Override
  public Resource takeGrowth() {
    return Resources.createResource(0, 0); // no container changes size
  }
}
