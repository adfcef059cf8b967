package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.List;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.ResourceSizing;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.api.records.UpdateContainerError;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * YARN's meanings of the AM protocol's fields stay YARN's for every AM: a resize Hare does not
 * serve comes back as YARN's update error naming what to do instead, placement constraints and
 * node-label asks are refused at allocate with a message, and Hare's own meanings of a decrease
 * (task boundaries) apply only to an AM that declared the Hare protocol.
 */
public class AmProtocolTest extends MockRmTestCase {

  private static UpdateContainerRequest update(Container c, ContainerUpdateType type, int gpus) {
    return UpdateContainerRequest.newInstance(c.getVersion(), c.getId(), type,
        HareRm.resource(1024, 1, gpus), null);
  }

  /** One GPU container of a new application's AM ({@code hare}: declared the Hare protocol). */
  private Container oneGpuContainer(MockAM am, MockNM nm) throws Exception {
    HareRm.askGpuTasks(am, 1);
    List<Container> got = h.heartbeatAndPull(am, nm);
    assertEquals(1, got.size());
    HareRm.askGpuTasks(am, 0);
    return got.get(0);
  }

  private static void refusedWithReason(AllocateResponse r, int n) {
    List<UpdateContainerError> errors = r.getUpdateErrors();
    assertEquals(errors.toString(), n, errors.size());
    for (UpdateContainerError e : errors) {
      assertTrue(e.getReason(), e.getReason().startsWith(AmUpdates.NOT_SERVED)
          && e.getReason().contains("release the container and ask"));
    }
    assertTrue(r.getUpdatedContainers().isEmpty());
  }

  @Test(timeout = 300_000)
  public void aResizeFromAnAmWithoutTheHareProtocolIsRefusedWithYarnsUpdateError()
      throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM plain = h.launch(h.submit(), nm);
    Container c = oneGpuContainer(plain, nm);

    // to no GPU is "park it" from a Hare AM; to its own size "next task started"
    refusedWithReason(plain.sendContainerUpdateRequest(List.of(
        update(c, ContainerUpdateType.DECREASE_RESOURCE, 0))), 1);
    refusedWithReason(plain.sendContainerUpdateRequest(List.of(UpdateContainerRequest
        .newInstance(c.getVersion(), c.getId(), ContainerUpdateType.DECREASE_RESOURCE,
            c.getResource(), null))), 1);
    refusedWithReason(plain.sendContainerUpdateRequest(List.of(
        update(c, ContainerUpdateType.INCREASE_RESOURCE, 2))), 1);
    assertEquals("the container kept its GPU: nothing parked, nothing freed", 1,
        h.scheduler().runningGpuTasks());
  }

  @Test(timeout = 300_000)
  public void aHareAmsTaskBoundaryIsServedButAnIncreaseIsRefused() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM hare = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=1"), nm);
    Container c = oneGpuContainer(hare, nm);

    AllocateResponse started = hare.sendContainerUpdateRequest(List.of(UpdateContainerRequest
        .newInstance(c.getVersion(), c.getId(), ContainerUpdateType.DECREASE_RESOURCE,
            c.getResource(), null)));
    assertEquals("'next task started' is no error", List.of(), started.getUpdateErrors());
    refusedWithReason(hare.sendContainerUpdateRequest(List.of(
        update(c, ContainerUpdateType.INCREASE_RESOURCE, 2))), 1);
    refusedWithReason(hare.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(
        c.getVersion(), c.getId(), ContainerUpdateType.DEMOTE_EXECUTION_TYPE, null,
        ExecutionType.OPPORTUNISTIC))), 1);
  }

  /** The refusal is YARN's own invalid-request exception, whose name differs in 3.4 and 3.5. */
  @Test(timeout = 60_000)
  public void aRefusalIsYarnsInvalidRequestExceptionOnThisHadoop() {
    YarnRuntimeException e = AmUpdates.invalidRequest("no");
    assertTrue(e.getClass().getName(), e.getClass().getSimpleName()
        .matches("SchedulerInvalidResourc?eRequestException"));
    assertEquals("no", e.getMessage());
  }

  @Test(timeout = 300_000)
  public void placementConstraintsAreRefusedAtAllocateWithAMessage() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    // the handler that would hand SchedulingRequests to a scheduler that enables them
    conf.set(YarnConfiguration.RM_PLACEMENT_CONSTRAINTS_HANDLER,
        YarnConfiguration.SCHEDULER_RM_PLACEMENT_CONSTRAINTS_HANDLER);
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 2);
    MockAM am = h.launch(h.submit(), nm);
    SchedulingRequest sr = SchedulingRequest.newBuilder().allocationRequestId(1)
        .priority(Priority.newInstance(1))
        .resourceSizing(ResourceSizing.newInstance(1, HareRm.resource(1024, 1, 1))).build();
    try {
      am.allocate(List.of(), List.of(sr), List.of());
      fail("a SchedulingRequest was accepted");
    } catch (Exception e) {
      // YARN refuses before the scheduler (HareScheduler enables no placement constraints);
      // were they passed on, AmUpdates refuses them with its own message
      assertTrue(e.toString(), e.toString().contains("placement constraints"));
    }
    assertEquals("nothing placed", 0, h.heartbeatAndPull(am, nm).size());
  }

  @Test(timeout = 300_000)
  public void aNodeLabelAskIsRefusedAtAllocateWithAMessage() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM am = h.launch(h.submit(), nm);
    ResourceRequest labelled = ResourceRequest.newInstance(Priority.newInstance(1),
        ResourceRequest.ANY, HareRm.resource(1024, 1, 1), 1);
    labelled.setNodeLabelExpression("gpu-partition");
    try {
      am.allocate(List.of(labelled), List.of());
      fail("a node-label ask was accepted");
    } catch (Exception e) {
      assertTrue(e.toString(), e.toString().toLowerCase().contains("label"));
    }
  }
}
