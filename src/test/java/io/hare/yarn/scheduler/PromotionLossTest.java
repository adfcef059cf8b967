package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.After;
import org.junit.Test;

/**
 * A promoted standby that dies gives its ask back: before its AM pulled the promotion, the
 * scheduler restores the ask and the AM only sees a standby end (which ran nothing); after, the
 * AM knows the task and asks again itself ({@code RoundProtocolTest}), so the scheduler restores
 * nothing. Either way the ask is counted once and the task runs.
 */
public class PromotionLossTest {

  private static final long ASK_ID = 7;
  private HareRm h;
  private MockNM nm;
  private MockAM a;
  private MockAM b;
  private Container aTask;
  private Container standby;

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  /** One one-GPU node busy with a's task, b's standby there, and a's task ended: promoted. */
  private void promoted() throws Exception {
    h = HareRm.start(HareRm.standbysAhead(true));
    nm = h.node("h1:1234", 1);
    a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(a, 1);
    aTask = h.heartbeatAndPull(a, nm).get(0);
    running(a, aTask);
    // b's one task asks under an id of its own, which the promotion must carry
    b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1", "hare.standby=true"), nm);
    b.allocate(List.of(ResourceRequest.newBuilder().priority(Priority.newInstance(1))
        .resourceName(ResourceRequest.ANY).capability(HareRm.resource(1024, 1, 1))
        .numContainers(1).allocationRequestId(ASK_ID).build()), List.of());
    List<Container> got = h.heartbeatAndPull(b, nm);
    assertEquals("b's standby", 1, got.size());
    standby = got.get(0);
    assertEquals(0, HareRm.gpus(standby));
    running(b, standby);
    h.finish(nm, aTask);
    assertEquals("the promotion took b's ask", 0, pendingGpuAsks(b));
  }

  private void running(MockAM am, Container c) throws Exception {
    nm.nodeHeartbeat(am.getApplicationAttemptId(), c.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
  }

  private int pendingGpuAsks(MockAM am) {
    return GpuTasks.outstanding(HareAppAttempt.of(
        h.scheduler().getApplicationAttempt(am.getApplicationAttemptId())));
  }

  @Test(timeout = 300_000)
  public void aStandbyDyingBeforeItsAmPulledThePromotionGivesTheAskBack() throws Exception {
    promoted();
    h.end(nm, standby, 137); // that heartbeat's pass places the ask given back
    AllocateResponse r = b.allocate(List.of(), List.of());
    assertTrue("the AM never hears of the promotion", r.getUpdatedContainers().isEmpty());
    assertEquals(List.of(standby.getId()), r.getCompletedContainersStatuses().stream()
        .map(ContainerStatus::getContainerId).toList());
    List<Container> got = r.getAllocatedContainers();
    assertEquals("b's task gets the GPU in a new container", 1, got.size());
    assertEquals(1, HareRm.gpus(got.get(0)));
    assertEquals(ASK_ID, got.get(0).getAllocationRequestId());
    assertEquals(0, pendingGpuAsks(b));
  }

  @Test(timeout = 300_000)
  public void aStandbyDyingAfterItsAmPulledThePromotionLeavesTheAskToTheAm() throws Exception {
    promoted();
    AllocateResponse r = b.allocate(List.of(), List.of());
    assertEquals(1, r.getUpdatedContainers().size());
    h.end(nm, standby, 137);
    assertEquals("the AM owns the task now: nothing restored", 0, pendingGpuAsks(b));
    assertEquals(0, h.scheduler().runningGpuTasks());
    assertEquals("the GPU is free", 1, h.scheduler().getSchedulerNode(nm.getNodeId())
        .getUnallocatedResource().getResourceValue(HareRm.GPU));
  }
}
