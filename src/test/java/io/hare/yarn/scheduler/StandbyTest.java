package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.scheduler.standby.WarmStandbys;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Standby containers: the job first in line for a busy GPU gets a container without the GPU on
 * its node before the GPU frees, taking no ask; when the GPU frees and goes to that job, the
 * standby is given it as a resource increase, taking the ask, and the node is never
 * over-committed. A standby its job no longer needs is killed; a job whose AM does not say it
 * takes standbys never gets one.
 */
public class StandbyTest {

  private static final long ASK_ID = 7;
  private HareRm h;
  private MockNM nm;
  private MockAM a;
  private Container aTask;

  /** One-time loading outside the tests' timeouts. */
  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  /** Standbys on (off by default); any running task is "about to end" with a lead of a day. */
  private static YarnConfiguration conf(long leadMs) {
    YarnConfiguration conf = HareRm.conf();
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, true);
    conf.setLong(SchedulerKeys.STANDBY_LEAD_MS, leadMs);
    return conf;
  }

  /** One node with one GPU, busy with a task of job a. */
  private void busyGpu(YarnConfiguration conf) throws Exception {
    h = HareRm.start(conf);
    nm = h.node("h1:1234", 1);
    a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(a, 1);
    aTask = h.heartbeatAndPull(a, nm).get(0);
    running(a, aTask);
  }

  private void running(MockAM am, Container c) throws Exception {
    nm.nodeHeartbeat(am.getApplicationAttemptId(), c.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
  }

  /** The one-GPU containers of {@code am}, one on {@link #nm} and one on {@code other}, running. */
  private List<Container> runningOnBoth(MockAM am, MockNM other) throws Exception {
    List<Container> got = h.heartbeatAndPull(am, nm, other);
    assertEquals(2, got.size());
    for (Container c : got) {
      (c.getNodeId().equals(nm.getNodeId()) ? nm : other).nodeHeartbeat(
          am.getApplicationAttemptId(), c.getId().getContainerId(), ContainerState.RUNNING);
    }
    h.rm.drainEvents();
    return got;
  }

  /**
   * Two one-GPU nodes, {@link #nm} and the one returned, both running a task of a weight-8 job of
   * one round of {@code k} tasks (so k - 2 of them still wait).
   */
  private MockNM heavyJobOnTwoNodes(int k) throws Exception {
    h = HareRm.start(conf(86_400_000L));
    nm = h.node("h1:1234", 1);
    MockNM other = h.node("h2:1234", 1);
    MockAM a = h.launch(h.submitHare("hare.weight=8", "hare.rounds=1", "hare.tasks-per-round=" + k),
        nm);
    HareRm.askGpuTasks(a, k);
    runningOnBoth(a, other);
    return other;
  }

  /** One one-GPU task ask under allocation request id {@link #ASK_ID}, or its withdrawal. */
  private static void ask(MockAM am, int n) throws Exception {
    am.allocate(List.of(ResourceRequest.newBuilder().priority(Priority.newInstance(1))
        .resourceName(ResourceRequest.ANY).capability(HareRm.resource(1024, 1, 1))
        .numContainers(n).allocationRequestId(ASK_ID).build()), List.of());
  }

  private int pendingGpuAsks(MockAM am) {
    return GpuTasks.outstanding(HareAppAttempt.of(
        h.scheduler().getApplicationAttempt(am.getApplicationAttemptId())));
  }

  private long unallocatedGpus() {
    return h.scheduler().getSchedulerNode(nm.getNodeId()).getUnallocatedResource()
        .getResourceValue(HareRm.GPU);
  }

  @Test(timeout = 300_000)
  public void theNextJobsStandbyIsGivenTheGpuWhenItFrees() throws Exception {
    busyGpu(conf(86_400_000L));
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(b, 1);
    List<Container> got = h.heartbeatAndPull(b, nm);
    assertEquals("a standby for b, while a's task runs", 1, got.size());
    Container standby = got.get(0);
    int version = standby.getVersion(); // MockAM shares the RM's record: read it now
    assertEquals("without the GPU", 0, HareRm.gpus(standby));
    assertEquals(1024, standby.getResource().getMemorySize());
    assertEquals("nor vcores", 0, standby.getResource().getVirtualCores());
    assertEquals("no ask's id", 0, standby.getAllocationRequestId());
    assertEquals("made for the busy GPU's device", GpuDevices.of(aTask.getAllocationTags()),
        GpuDevices.expected(standby.getAllocationTags()));
    assertTrue(GpuDevices.expected(standby.getAllocationTags()).isPresent());
    assertEquals("it took no ask", 1, pendingGpuAsks(b));
    assertEquals(0, unallocatedGpus());
    running(b, standby);

    h.finish(nm, aTask);
    AllocateResponse r = b.allocate(List.of(), List.of());
    assertEquals("no new container: the standby got the GPU", 0,
        r.getAllocatedContainers().size());
    assertEquals(1, r.getUpdatedContainers().size());
    UpdatedContainer u = r.getUpdatedContainers().get(0);
    assertEquals(ContainerUpdateType.INCREASE_RESOURCE, u.getUpdateType());
    assertEquals(standby.getId(), u.getContainer().getId());
    assertEquals(1, HareRm.gpus(u.getContainer()));
    assertEquals(version + 1, u.getContainer().getVersion());
    assertEquals("the ask it took", ASK_ID, u.getContainer().getAllocationRequestId());
    assertEquals("the device it was made for", GpuDevices.of(aTask.getAllocationTags()),
        GpuDevices.of(u.getContainer().getAllocationTags()));
    assertEquals("a hint no more", OptionalInt.empty(),
        GpuDevices.expected(u.getContainer().getAllocationTags()));
    assertEquals(0, pendingGpuAsks(b));
    assertEquals("the GPU is b's, once", 0, unallocatedGpus());
    assertEquals(1, h.scheduler().runningTasks(b.getApplicationAttemptId().getApplicationId()));

    h.finish(nm, u.getContainer());
    assertEquals(1, unallocatedGpus());
    assertEquals(0, h.scheduler().runningGpuTasks());
  }

  @Test(timeout = 300_000)
  public void aJobThatBecomesFirstInLineGetsItsOwnStandbyAndTheGpu() throws Exception {
    busyGpu(conf(86_400_000L));
    // light and long, then heavy and short: the heavier job goes first once it asks
    MockAM b = h.launch(h.submitHare("hare.weight=1", "hare.rounds=20", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(b, 1);
    Container bStandby = h.heartbeatAndPull(b, nm).get(0);
    running(b, bStandby);
    MockAM c = h.launch(h.submitHare("hare.weight=8", "hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(c, 1);
    List<Container> got = h.heartbeatAndPull(c, nm);
    assertEquals("b's standby does not cover the GPU c is first in line for", 1, got.size());
    Container cStandby = got.get(0);
    running(c, cStandby);
    assertEquals(2, h.scheduler().standbys());

    h.finish(nm, aTask);
    List<UpdatedContainer> promoted = c.allocate(List.of(), List.of()).getUpdatedContainers();
    assertEquals(1, promoted.size());
    assertEquals(cStandby.getId(), promoted.get(0).getContainer().getId());
    assertTrue("b's standby waits on", b.allocate(List.of(), List.of())
        .getUpdatedContainers().isEmpty());
    assertEquals(1, h.scheduler().standbys());
    assertEquals(0, unallocatedGpus());
  }

  /**
   * A node's room for standbys made ahead (twice its GPUs) full of standbys of jobs the line has
   * left does not keep the job in line now from one: the standby unneeded longest makes room.
   * Before, in the switching bench, the jobs that arrived first filled every node's room while
   * the first re-plans moved the line, and the jobs the last re-plan put first started their
   * first tasks in new containers (350-470 ms switches).
   */
  @Test(timeout = 300_000)
  public void aJobNewlyInLineTakesTheRoomOfTheStandbyUnneededLongest() throws Exception {
    busyGpu(conf(86_400_000L)); // one GPU: room for two standbys made ahead
    ControlledClock clock = h.controlledClock();
    List<MockAM> waiting = new ArrayList<>();
    List<Container> standbys = new ArrayList<>();
    for (int weight : new int[] {1, 2, 8}) { // each one goes first in line as it asks
      clock.tickMsec(1_000);
      MockAM j = h.launch(h.submitHare("hare.weight=" + weight, "hare.rounds=1",
          "hare.tasks-per-round=1", "hare.standby=true"), nm);
      ask(j, 1);
      List<Container> got = h.heartbeatAndPull(j, nm);
      assertEquals("weight " + weight + " gets a standby", 1, got.size());
      running(j, got.get(0));
      waiting.add(j);
      standbys.add(got.get(0));
    }
    List<ContainerStatus> ended = waiting.get(0).allocate(List.of(), List.of())
        .getCompletedContainersStatuses();
    assertEquals("weight 1's standby, the oldest guess, made room", 1, ended.size());
    assertEquals(standbys.get(0).getId(), ended.get(0).getContainerId());
    assertTrue("weight 2's waits on", waiting.get(1).allocate(List.of(), List.of())
        .getCompletedContainersStatuses().isEmpty());
    assertEquals(2, h.scheduler().standbys());

    h.finish(nm, aTask);
    List<UpdatedContainer> promoted = waiting.get(2).allocate(List.of(), List.of())
        .getUpdatedContainers();
    assertEquals("the GPU goes to weight 8's standby", 1, promoted.size());
    assertEquals(standbys.get(2).getId(), promoted.get(0).getContainer().getId());
  }

  @Test(timeout = 300_000)
  public void theJobFirstInLineKeepsOnlyTheGpusItHasTasksForTheNextGetsTheRest()
      throws Exception {
    h = HareRm.start(conf(86_400_000L));
    nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submitHare("hare.weight=8", "hare.rounds=1", "hare.tasks-per-round=3"),
        nm);
    HareRm.askGpuTasks(a, 3);
    for (Container c : h.heartbeatAndPull(a, nm)) {
      running(a, c);
    }
    // a is first in line with one task left: one of its GPUs runs it next, the other frees
    MockAM b = h.launch(h.submitHare("hare.weight=1", "hare.rounds=20", "hare.tasks-per-round=2",
        "hare.standby=true"), nm);
    b.allocate(List.of(ResourceRequest.newBuilder().priority(Priority.newInstance(1))
        .resourceName(ResourceRequest.ANY).capability(HareRm.resource(1024, 1, 1))
        .numContainers(2).allocationRequestId(ASK_ID).build()), List.of());
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<Container> got = h.heartbeatAndPull(b, nm);
    assertEquals("one standby, for the GPU a will not keep", 1, got.size());
    assertEquals(0, HareRm.gpus(got.get(0)));
  }

  /**
   * The GPUs ending soon are counted cluster-wide: job b, first in line with one task, takes one
   * of a's two GPUs (on one node), not one on every node; job c gets its standby on the other
   * node. Counted per node, b's one task took every node's GPU and c got none anywhere.
   */
  @Test(timeout = 300_000)
  public void aJobInLineTakesAsManyGpusAsItHasTasksAcrossNodes() throws Exception {
    MockNM other = heavyJobOnTwoNodes(2);
    MockAM b = h.launch(h.submitHare("hare.weight=4", "hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(b, 1);
    MockAM c = h.launch(h.submitHare("hare.weight=1", "hare.rounds=20", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(c, 1);
    List<Container> forB = h.heartbeatAndPull(b, nm, other);
    List<Container> forC = h.heartbeatAndPull(c, nm, other);
    assertEquals("b: one standby for its one task", 1, forB.size());
    assertEquals("c: one standby, for the GPU b will not take", 1, forC.size());
    assertTrue("on different nodes", !forB.get(0).getNodeId().equals(forC.get(0).getNodeId()));
  }

  /**
   * Job a, first in line with one task left, runs it on whichever of its two GPUs frees first;
   * the estimates cannot tell which (both tasks started in one pass), so job b, next in line with
   * two tasks, waits on both nodes: its first task on the other GPU is no container launch.
   */
  @Test(timeout = 300_000)
  public void theNextJobWaitsOnEveryGpuTheRunningJobMayLeave() throws Exception {
    MockNM other = heavyJobOnTwoNodes(3);
    MockAM b = h.launch(h.submitHare("hare.weight=1", "hare.rounds=20", "hare.tasks-per-round=2",
        "hare.standby=true"), nm);
    ask(b, 2);
    nm.nodeHeartbeat(true);
    other.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<Container> got = h.heartbeatAndPull(b, nm, other);
    assertEquals("a standby on each node", 2, got.size());
    assertTrue(!got.get(0).getNodeId().equals(got.get(1).getNodeId()));
    assertEquals(0, HareRm.gpus(got.get(0)) + HareRm.gpus(got.get(1)));
  }

  @Test(timeout = 300_000)
  public void aStandbyItsJobNoLongerNeedsIsKilled() throws Exception {
    h = HareRm.start(conf(86_400_000L));
    nm = h.node("h1:1234", 1);
    MockNM other = h.node("h2:1234", 1);
    MockAM a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> aTasks = runningOnBoth(a, other);
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(b, 1);
    List<Container> standbys = h.heartbeatAndPull(b, nm, other);
    assertEquals("a standby on the node whose GPU ends first", 1, standbys.size());
    Container standby = standbys.get(0);
    MockNM at = standby.getNodeId().equals(nm.getNodeId()) ? nm : other;
    MockNM away = at == nm ? other : nm;
    at.nodeHeartbeat(b.getApplicationAttemptId(), standby.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
    // b's one task goes to the GPU that frees first, on the other node: none of b's is to come
    h.finish(away, aTasks.stream().filter(c -> c.getNodeId().equals(away.getNodeId()))
        .findFirst().orElseThrow());
    assertEquals(1, h.heartbeatAndPull(b, away).size());
    ask(b, 0); // the AM withdraws the ask it got the container for
    at.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<ContainerStatus> ended = b.allocate(List.of(), List.of())
        .getCompletedContainersStatuses();
    assertEquals(1, ended.size());
    assertEquals(standby.getId(), ended.get(0).getContainerId());
    assertEquals("a's task and b's", 2, h.scheduler().runningGpuTasks());
    assertEquals("no standby waits", 0, h.scheduler().standbys());
  }

  /**
   * A standby made ahead is a guess: it may wait past the limit (10 x the lead) while its job is
   * in line for a GPU of its node, and is killed once it has waited that long since, here after
   * its job withdrew its ask (parked containers wait without the limit: ParkingTest). Before,
   * the limit ran from the standby's start: in the switching bench a job first in line again lost
   * its standbys 2 s before their GPUs freed, and its tasks started in new containers.
   */
  @Test(timeout = 300_000)
  public void aStandbyMadeAheadIsKilledOnceItWaitedPastTheLimitUnneeded() throws Exception {
    long leadMs = 86_400_000L;
    h = HareRm.start(conf(leadMs));
    ControlledClock clock = h.controlledClock();
    nm = h.node("h1:1234", 1);
    a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(a, 1);
    running(a, h.heartbeatAndPull(a, nm).get(0));
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    ask(b, 1);
    Container standby = h.heartbeatAndPull(b, nm).get(0);
    running(b, standby);
    long limitMs = WarmStandbys.maxWaitMs(leadMs);

    for (int beat = 0; beat < 2; beat++) { // twice the limit in all, each heartbeat needing it
      clock.tickMsec(limitMs);
      nm.nodeHeartbeat(true);
      h.rm.drainEvents();
    }
    assertTrue("b is next for the GPU: its standby waits on", b.allocate(List.of(), List.of())
        .getCompletedContainersStatuses().isEmpty());

    ask(b, 0); // b withdraws its ask (its task is still to come): no GPU goes to it now
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    clock.tickMsec(limitMs);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertTrue("at the limit it waits on", b.allocate(List.of(), List.of())
        .getCompletedContainersStatuses().isEmpty());

    clock.tickMsec(1);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<ContainerStatus> ended = b.allocate(List.of(), List.of())
        .getCompletedContainersStatuses();
    assertEquals(1, ended.size());
    assertEquals(standby.getId(), ended.get(0).getContainerId());
    assertEquals(0, h.scheduler().standbys());
  }

  @Test(timeout = 300_000)
  public void aJobWhoseAmDoesNotTakeStandbysGetsNone() throws Exception {
    busyGpu(conf(86_400_000L));
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    ask(b, 1);
    assertTrue(h.heartbeatAndPull(b, nm).isEmpty());
  }

  @Test(timeout = 300_000)
  public void noStandbyBeforeTheLeadTimeOrWhenDisabled() throws Exception {
    // a task is expected to take the default 60 s: a lead of 0 waits for its end
    busyGpu(conf(0));
    MockAM b = h.launch(h.submitHare("hare.standby=true"), nm);
    ask(b, 1);
    assertTrue(h.heartbeatAndPull(b, nm).isEmpty());
    h.close();

    YarnConfiguration off = conf(86_400_000L);
    off.setBoolean(SchedulerKeys.STANDBY_ENABLED, false);
    busyGpu(off);
    b = h.launch(h.submitHare("hare.standby=true"), nm);
    ask(b, 1);
    assertTrue(h.heartbeatAndPull(b, nm).isEmpty());
  }
}
