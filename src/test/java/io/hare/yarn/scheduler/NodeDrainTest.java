package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.PreemptionMessage;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEventType;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.junit.Test;

/**
 * Nodes an admin takes out or cuts down, as YARN defines it for every scheduler: a node being
 * decommissioned gracefully ({@code yarn rmadmin -refreshNodes -g}) gets nothing new, as
 * CapacityScheduler places nothing on a node that is not RUNNING, and a Hare AM's warm containers
 * there are asked back at their tasks' ends, so the node drains; a node whose resources are cut
 * below what runs there has containers asked back (the negotiable preemption contract, any AM)
 * and, once the admin's timeout passed, killed as preempted.
 */
public class NodeDrainTest extends MockRmTestCase {

  private static Set<ContainerId> askedBack(AllocateResponse r) {
    PreemptionMessage m = r.getPreemptionMessage();
    return m == null || m.getContract() == null ? Set.of()
        : m.getContract().getContainers().stream().map(c -> c.getId())
            .collect(Collectors.toSet());
  }

  /**
   * A heartbeat of {@code nm} that reports its containers running, as a real NodeManager's does
   * (a node that reports none is ready to leave, and YARN decommissions it at once).
   */
  private void heartbeatRunning(MockNM nm) throws Exception {
    List<ContainerStatus> running = new ArrayList<>();
    for (RMContainer c : h.scheduler().getSchedulerNode(nm.getNodeId())
        .getCopiedListOfRunningContainers()) {
      running.add(BuilderUtils.newContainerStatus(c.getContainerId(), ContainerState.RUNNING,
          "", 0, c.getAllocatedResource()));
    }
    nm.nodeHeartbeat(running, true);
    h.rm.drainEvents();
  }

  /** Heartbeats of both nodes (the leaving one reporting its containers), then b's pull. */
  private List<Container> heartbeatAndPull(MockAM am, MockNM leaving, MockNM staying)
      throws Exception {
    heartbeatRunning(leaving);
    return h.heartbeatAndPull(am, staying);
  }

  @Test(timeout = 300_000)
  public void aDecommissioningNodeTakesNothingNewAndItsWarmContainersAreAskedBack()
      throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM n1 = h.node("h1:1234", 2);
    MockNM n2 = h.node("h2:1234", 2);
    MockAM a = h.launch(h.submitHare("hare.weight=8", "hare.rounds=20",
        "hare.tasks-per-round=6"), n2);
    // light and long: after a in line, it takes what a leaves free
    MockAM b = h.launch(h.submitHare("hare.weight=1", "hare.rounds=20",
        "hare.tasks-per-round=1"), n2);
    HareRm.askGpuTasks(a, 3);
    List<Container> got = h.heartbeatAndPull(a, n1, n2);
    assertEquals(3, got.size());
    // the node with a free GPU leaves; the other one is full
    MockNM leaving = got.stream().filter(c -> c.getNodeId().equals(n1.getNodeId())).count() == 1
        ? n1 : n2;
    MockNM staying = leaving == n1 ? n2 : n1;
    Container onLeaving = got.stream().filter(c -> c.getNodeId().equals(leaving.getNodeId()))
        .findFirst().orElseThrow();
    Container onStaying = got.stream().filter(c -> c.getNodeId().equals(staying.getNodeId()))
        .findFirst().orElseThrow();
    heartbeatRunning(leaving); // the RM learns which applications run there

    h.rm.sendNodeGracefulDecommission(leaving, 3600);
    h.rm.drainEvents();
    HareRm.askGpuTasks(a, 3); // the rest of the round: more than the free GPUs
    HareRm.askGpuTasks(b, 1);
    List<Container> placed = heartbeatAndPull(a, leaving, staying);
    placed.addAll(b.allocate(List.of(), List.of()).getAllocatedContainers());
    assertEquals(NodeState.DECOMMISSIONING,
        h.rm.getRMContext().getRMNodes().get(leaving.getNodeId()).getState());
    assertEquals("the decommissioning node's free GPU takes no task: " + placed, List.of(),
        placed);
    assertEquals("the warm container on the decommissioning node is asked back, not those on"
        + " the RUNNING node", Set.of(onLeaving.getId()),
        askedBack(a.allocate(List.of(), List.of())));

    // a task on the RUNNING node ends: its GPU takes a's next task
    h.end(staying, onStaying, 0);
    placed = heartbeatAndPull(a, leaving, staying);
    placed.addAll(heartbeatAndPull(a, leaving, staying));
    assertEquals("one task, on the RUNNING node: " + placed, 1, placed.size());
    assertEquals(staying.getNodeId(), placed.get(0).getNodeId());

    // recommissioned: its free GPU is offered again
    h.rm.getRMContext().getDispatcher().getEventHandler().handle(
        new RMNodeEvent(leaving.getNodeId(), RMNodeEventType.RECOMMISSION));
    h.rm.drainEvents();
    List<Container> again = heartbeatAndPull(a, leaving, staying);
    again.addAll(heartbeatAndPull(a, leaving, staying));
    assertEquals("a's next task on the recommissioned node: " + again, 1, again.size());
    assertEquals(leaving.getNodeId(), again.get(0).getNodeId());
  }

  /**
   * The heartbeat that first shows a node decommissioning: YARN shrinks the node to what it has
   * allocated only by an event after it, so the pass of that heartbeat must leave the node's free
   * GPUs alone (YARN would kill a container placed there when the shrink lands).
   */
  @Test(timeout = 300_000)
  public void theFirstHeartbeatOfADecommissioningNodePlacesNothingThere() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.POLICY, "yarn-fifo");
    h = HareRm.start(conf);
    MockNM gpus = h.node("h1:1234", 2);
    MockNM am = h.node("h2:1234", 0);
    MockAM a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=2"), am);
    HareRm.askGpuTasks(a, 1);
    assertEquals(1, h.heartbeatAndPull(a, gpus).size());
    heartbeatRunning(gpus); // the RM learns which applications run there

    h.rm.sendNodeGracefulDecommission(gpus, 3600);
    h.rm.drainEvents();
    // a container placed there would be killed as soon as the shrink lands, before its AM
    // pulled it: the scheduler's own record of task starts shows it
    List<String> started = new ArrayList<>();
    h.scheduler().addTaskListener(new TaskListener() {
      @Override
      public void taskStarted(ApplicationId app, ContainerId c, NodeId node, String type,
          long nowMs) {
        started.add(c + " on " + node);
      }
    });
    HareRm.askGpuTasks(a, 1);
    heartbeatRunning(gpus);
    List<Container> placed = new ArrayList<>(
        a.allocate(List.of(), List.of()).getAllocatedContainers());
    heartbeatRunning(gpus);
    placed.addAll(a.allocate(List.of(), List.of()).getAllocatedContainers());
    assertEquals(NodeState.DECOMMISSIONING,
        h.rm.getRMContext().getRMNodes().get(gpus.getNodeId()).getState());
    assertEquals("nothing new on the decommissioning node's free GPU", List.of(), started);
    assertEquals(List.of(), placed);
  }

  /** YARN's overcommit: asked back (any AM, not only a Hare one), then killed after the timeout. */
  @Test(timeout = 300_000)
  public void containersOfANodeCutBelowItsUseAreAskedBackThenKilledAsPreempted()
      throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> got = h.heartbeatUntil(a, 2, nm);
    assertEquals(2, got.size());
    Set<ContainerId> ids = got.stream().map(Container::getId).collect(Collectors.toSet());

    NodeId node = nm.getNodeId();
    h.rm.getAdminService().updateNodeResource(UpdateNodeResourceRequest.newInstance(Map.of(
        node, ResourceOption.newInstance(HareRm.resource(16 * 1024, 16, 1), 1_000))));
    h.rm.drainEvents();
    Set<ContainerId> asked = askedBack(a.allocate(List.of(), List.of()));
    assertEquals("one of the two GPU containers is asked back: " + asked, 1, asked.size());
    assertTrue(asked + " of " + ids, ids.containsAll(asked));

    List<ContainerStatus> ended = new ArrayList<>();
    GenericTestUtils.waitFor(() -> {
      try {
        nm.nodeHeartbeat(true);
        h.rm.drainEvents();
        ended.addAll(a.allocate(List.of(), List.of()).getCompletedContainersStatuses());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      return !ended.isEmpty();
    }, 50, 60_000);
    assertEquals(ended.toString(), 1, ended.size());
    assertEquals(asked, Set.of(ended.get(0).getContainerId()));
    assertEquals(ContainerExitStatus.PREEMPTED, ended.get(0).getExitStatus());
    assertEquals("the node's one GPU still runs the other container", 1,
        h.scheduler().getSchedulerNode(node).getAllocatedResource()
            .getResourceValue(ResourceInformation.GPU_URI));
  }
}
