package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.junit.Test;

/**
 * The AM's hurriable heartbeat: the first heartbeat goes at once; a later one waits its interval
 * unless hurried, or the interval is shortened, while it waits.
 */
public class HurriableAmrmClientTest {

  private static final long AN_HOUR_MS = 3_600_000L;

  /** Starts a heartbeat's wait on another thread; the latch opens when its turn came. */
  private static CountDownLatch waitTurn(HurriableAmrmClient c) {
    CountDownLatch turn = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      c.awaitTurn();
      turn.countDown();
    });
    t.setDaemon(true);
    t.start();
    return turn;
  }

  @Test(timeout = 60_000)
  public void theFirstHeartbeatGoesAtOnceALaterOneWhenHurried() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    CountDownLatch second = waitTurn(c);
    assertFalse("it waits its interval", second.await(200, TimeUnit.MILLISECONDS));
    c.hurry();
    assertTrue(second.await(30, TimeUnit.SECONDS));
  }

  @Test(timeout = 60_000)
  public void aHurryDuringAHeartbeatSendsTheNextAtOnce() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    c.hurry(); // while the first one is in flight
    assertTrue(waitTurn(c).await(30, TimeUnit.SECONDS));
    assertFalse("one hurry, one early heartbeat",
        waitTurn(c).await(200, TimeUnit.MILLISECONDS));
  }

  @Test(timeout = 60_000)
  public void aShorterIntervalAppliesToTheHeartbeatBeingWaitedFor() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    CountDownLatch second = waitTurn(c);
    c.setIntervalMs(1);
    assertTrue(second.await(30, TimeUnit.SECONDS));
  }

  private static Container container(int n, Resource r) {
    ContainerId id = ContainerId.newContainerId(ApplicationAttemptId.newInstance(
        ApplicationId.newInstance(1, 1), 1), n);
    return Container.newInstance(id, NodeId.newInstance("h1", 1), "h1:2", r,
        Priority.newInstance(1), null);
  }

  /**
   * A second task boundary of a container before the next call does not replace the first
   * (AMRMClient keeps one unsent update per container; the scheduler counts each): it waits.
   */
  @Test(timeout = 60_000)
  public void aSecondUpdateOfAContainerBeforeTheNextCallWaitsAndHurries() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    Resource gpu = Resource.newInstance(1024, 1);
    Container a = container(2, gpu);
    Container b = container(3, gpu);
    UpdateContainerRequest next = UpdateContainerRequest.newInstance(0, a.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, gpu, null);
    UpdateContainerRequest park = UpdateContainerRequest.newInstance(0, a.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, Resource.newInstance(512, 1), null);
    c.requestContainerUpdate(a, next);
    c.requestContainerUpdate(a, park);
    c.requestContainerUpdate(b, next);
    assertEquals("the first boundary goes with the next call", next, c.unsentUpdate(a.getId()));
    assertEquals("another container's goes too", next, c.unsentUpdate(b.getId()));
    c.afterCall(); // no call went: the first is still unsent, the second still waits
    assertEquals(next, c.unsentUpdate(a.getId()));
    assertTrue("the held update hurries the next call", waitTurn(c).await(30, TimeUnit.SECONDS));
  }

  /** An RM that answers every allocate call with nothing and keeps the calls' updates. */
  private static final class RecordingRm implements ApplicationMasterProtocol {
    final List<List<UpdateContainerRequest>> updates = new ArrayList<>();

    @Override
    public RegisterApplicationMasterResponse registerApplicationMaster(
        RegisterApplicationMasterRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FinishApplicationMasterResponse finishApplicationMaster(
        FinishApplicationMasterRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public synchronized AllocateResponse allocate(AllocateRequest request) {
      updates.add(new ArrayList<>(request.getUpdateRequests()));
      return AllocateResponse.newInstance(updates.size(), List.of(), List.of(), List.of(),
          Resource.newInstance(0, 0), null, 1, null, List.of());
    }
  }

  @Test(timeout = 60_000)
  public void heldUpdatesGoOnePerCallAndTaskBoundariesAreNotKeptAfterTheirCall()
      throws Exception {
    RecordingRm rm = new RecordingRm();
    HurriableAmrmClient c = new HurriableAmrmClient(1, rm);
    Resource gpu = Resource.newInstance(1024, 1);
    Container a = container(2, gpu);
    UpdateContainerRequest next = UpdateContainerRequest.newInstance(0, a.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, gpu, null);
    UpdateContainerRequest park = UpdateContainerRequest.newInstance(0, a.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, Resource.newInstance(512, 1), null);
    Container b = container(3, gpu);
    UpdateContainerRequest nextOfB = UpdateContainerRequest.newInstance(0, b.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, gpu, null);
    c.requestContainerUpdate(a, next);
    c.requestContainerUpdate(a, park);
    c.requestContainerUpdate(b, nextOfB);
    c.allocate(0.5f);
    assertFalse("a task boundary is never answered: nothing to send again after an RM restart",
        c.awaitsAnswer(b.getId()));
    c.allocate(0.5f);
    c.allocate(0.5f);
    assertEquals(List.of(List.of(next, nextOfB), List.of(park), List.of()), rm.updates);
    assertTrue("a parking is answered by the scheduler", c.awaitsAnswer(a.getId()));
  }
  /**
   * The wait before a warm container's runner may exit: done once every update of the
   * container asked for so far went out with a call that returned, a held one included; at
   * once for a container with nothing to send.
   */
  @Test(timeout = 60_000)
  public void updatesSentCompletesAfterTheCallsThatCarriedThem() throws Exception {
    RecordingRm rm = new RecordingRm();
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS, rm);
    Resource gpu = Resource.newInstance(1024, 1);
    Container a = container(2, gpu);
    Container b = container(3, gpu);
    assertTrue("nothing to send", c.updatesSent(a.getId()).isDone());
    UpdateContainerRequest next = UpdateContainerRequest.newInstance(0, a.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, gpu, null);
    c.requestContainerUpdate(a, next);
    c.requestContainerUpdate(a, next); // a second task boundary, held for the next call
    CompletableFuture<Void> sent = c.updatesSent(a.getId());
    assertFalse(sent.isDone());
    assertTrue("b has nothing to send", c.updatesSent(b.getId()).isDone());
    c.allocate(0.5f);
    assertFalse("one of a's two boundaries is still to send", sent.isDone());
    // hurried: the next call goes at once although the interval is an hour
    c.allocate(0.5f);
    assertTrue(sent.isDone());
    assertEquals(List.of(List.of(next), List.of(next)), rm.updates);
  }
}
