package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import io.hare.yarn.scheduler.standby.WarmStandbys;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Parked containers: the AM of a warm container whose task ended, with no next task for it now,
 * decreases it to its size without the GPU; the scheduler counts the task's end, frees the GPU
 * and keeps the container as a standby of its job, which its next round's first task on that node
 * is promoted into. Without standbys, the container is killed instead; a request for more than
 * the container has or for an old version changes nothing.
 */
public class ParkingTest {

  private HareRm h;
  private MockNM nm;
  private MockAM a;
  private ApplicationId app;
  private Container task;
  private int version;

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

  /** One node with one GPU, running the first of job a's two one-task rounds. */
  private void running(boolean standbys) throws Exception {
    // the GPUs go in priority dispatch's order: b, heavier, first
    YarnConfiguration conf = HareRm.priorityDispatch(HareRm.conf());
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, standbys);
    h = HareRm.start(conf);
    nm = h.node("h1:1234", 1);
    a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=1", "hare.standby=true"), nm);
    app = a.getApplicationAttemptId().getApplicationId();
    HareRm.askGpuTasks(a, 1);
    task = h.heartbeatAndPull(a, nm).get(0);
    version = task.getVersion(); // MockAM shares the RM's record: read it now
    nm.nodeHeartbeat(a.getApplicationAttemptId(), task.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
    HareRm.askGpuTasks(a, 0); // the round's one task has its container
  }

  /** A job of one one-task round, its AM on {@link #nm}, runs its task on {@code node}. */
  private void anotherJobsTaskRunsOn(MockNM node) throws Exception {
    MockAM q = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(q, 1);
    Container task = h.heartbeatAndPull(q, node).get(0);
    node.nodeHeartbeat(q.getApplicationAttemptId(), task.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
  }

  /** Standbys on, with a lead of a day: any running task is about to end. */
  private static YarnConfiguration standbysAhead() {
    // the GPUs go in priority dispatch's order: b, heavier, first
    YarnConfiguration conf = HareRm.priorityDispatch(HareRm.conf());
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, true);
    conf.setLong(SchedulerKeys.STANDBY_LEAD_MS, 86_400_000L);
    return conf;
  }

  private AllocateResponse park(long memoryMb, int atVersion) throws Exception {
    AllocateResponse r = a.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(
        atVersion, task.getId(), ContainerUpdateType.DECREASE_RESOURCE,
        HareRm.resource(memoryMb, 1, 0), null)));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    return r;
  }

  private long unallocatedGpus() {
    return h.scheduler().getSchedulerNode(nm.getNodeId()).getUnallocatedResource()
        .getResourceValue(HareRm.GPU);
  }

  @Test(timeout = 300_000)
  public void aParkedContainerGivesItsGpuBackAndRunsTheJobsNextRound() throws Exception {
    running(true);
    assertEquals("the AM may park it; it runs on device 0",
        Set.of(JobTags.PARKABLE, GpuDevices.tag(0)), task.getAllocationTags());
    park(1024, version);
    assertEquals("the task ended: its GPU is free", 1, unallocatedGpus());
    assertEquals(0, h.scheduler().runningTasks(app));
    assertEquals(1, h.scheduler().standbys());
    AllocateResponse r = a.allocate(List.of(), List.of());
    assertTrue("the container lives on", r.getCompletedContainersStatuses().isEmpty());
    assertEquals(1, r.getUpdatedContainers().size());
    UpdatedContainer parked = r.getUpdatedContainers().get(0);
    assertEquals(ContainerUpdateType.DECREASE_RESOURCE, parked.getUpdateType());
    assertEquals(task.getId(), parked.getContainer().getId());
    assertEquals(0, HareRm.gpus(parked.getContainer()));
    assertEquals("it keeps its memory", 1024,
        parked.getContainer().getResource().getMemorySize());
    assertEquals("not its vcores: it idles", 0,
        parked.getContainer().getResource().getVirtualCores());
    assertEquals(version + 1, parked.getContainer().getVersion());
    int parkedVersion = parked.getContainer().getVersion();

    nm.nodeHeartbeat(true); // between rounds: no ask, yet the standby is kept for the next
    h.rm.drainEvents();
    assertEquals(1, h.scheduler().standbys());

    HareRm.askGpuTasks(a, 1); // round 2
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    r = a.allocate(List.of(), List.of());
    assertEquals("no new container", 0, r.getAllocatedContainers().size());
    assertEquals(1, r.getUpdatedContainers().size());
    UpdatedContainer promoted = r.getUpdatedContainers().get(0);
    assertEquals(ContainerUpdateType.INCREASE_RESOURCE, promoted.getUpdateType());
    assertEquals(task.getId(), promoted.getContainer().getId());
    assertEquals(1, HareRm.gpus(promoted.getContainer()));
    assertEquals(parkedVersion + 1, promoted.getContainer().getVersion());
    assertEquals(0, unallocatedGpus());
    assertEquals(1, h.scheduler().runningTasks(app));
    assertEquals(0, h.scheduler().standbys());
  }

  @Test(timeout = 300_000)
  public void withoutStandbysAParkedContainerIsKilledAndItsGpuFreed() throws Exception {
    running(false);
    assertEquals("not tagged parkable: the Hare AM would not ask", Set.of(GpuDevices.tag(0)),
        task.getAllocationTags());
    park(1024, version);
    List<ContainerStatus> ended = a.allocate(List.of(), List.of())
        .getCompletedContainersStatuses();
    assertEquals(1, ended.size());
    assertEquals(task.getId(), ended.get(0).getContainerId());
    h.finish(nm, task); // YARN frees a launched container's node share once its NM says so
    assertEquals(1, unallocatedGpus());
    assertEquals(0, h.scheduler().runningGpuTasks());
    assertEquals(0, h.scheduler().standbys());
  }

  @Test(timeout = 300_000)
  public void aParkingRequestOfAnotherSizeOrAnOldVersionChangesNothing() throws Exception {
    running(true);
    park(1024, version + 1);
    park(2048, version);
    assertEquals(0, unallocatedGpus());
    assertEquals(1, h.scheduler().runningTasks(app));
    assertEquals(0, h.scheduler().standbys());
    assertTrue(a.allocate(List.of(), List.of()).getUpdatedContainers().isEmpty());
  }

  /**
   * {@link #parkOnBothGpus}, with a ControlledClock on the scheduler moved on by {@code waitMs}
   * after the parking.
   */
  private ControlledClock parkedAndWaiting(long waitMs) throws Exception {
    // the GPUs go in priority dispatch's order: b, heavier, first
    YarnConfiguration conf = HareRm.priorityDispatch(HareRm.conf());
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, true);
    h = HareRm.start(conf);
    ControlledClock clock = h.controlledClock();
    nm = h.node("h1:1234", 2);
    parkOnBothGpus();
    clock.tickMsec(waitMs);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    return clock;
  }

  /**
   * On {@link #nm}, a node with two GPUs: job a (two rounds of 3 tasks) runs on both, and parks
   * both containers while job b, heavier, takes the GPUs; a's third task waits.
   */
  private void parkOnBothGpus() throws Exception {
    a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=3", "hare.standby=true"), nm);
    HareRm.askGpuTasks(a, 3);
    List<Container> tasks = h.heartbeatAndPull(a, nm);
    assertEquals(2, tasks.size());
    for (Container c : tasks) {
      nm.nodeHeartbeat(a.getApplicationAttemptId(), c.getId().getContainerId(),
          ContainerState.RUNNING);
    }
    h.rm.drainEvents();
    MockAM b = h.launch(h.submitHare("hare.weight=8", "hare.rounds=1", "hare.tasks-per-round=2"),
        nm);
    HareRm.askGpuTasks(b, 2);
    for (Container c : tasks) {
      a.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(c.getVersion(),
          c.getId(), ContainerUpdateType.DECREASE_RESOURCE, HareRm.resource(1024, 1, 0), null)));
    }
    assertEquals("b, first in line, took both GPUs", 2, h.heartbeatAndPull(b, nm).size());
  }

  /**
   * A job waiting for GPUs keeps all its parked containers (its next tasks run in them), and
   * for however long: the wait limit of standbys is for those made ahead, a guess. Before, a job
   * that waited longer than the limit (30 s by default) lost them and started its next tasks in
   * new containers.
   */
  @Test(timeout = 300_000)
  public void aJobWaitingForAGpuKeepsAllItsParkedContainers() throws Exception {
    parkedAndWaiting(0);
    assertEquals("a waits with one task and keeps both", 2, h.scheduler().standbys());
    assertTrue(a.allocate(List.of(), List.of()).getCompletedContainersStatuses().isEmpty());

    h.close();
    parkedAndWaiting(
        WarmStandbys.maxWaitMs(SchedulerKeys.DEFAULT_STANDBY_LEAD_MS) + 1);
    assertEquals("a kept both past the standbys' wait limit", 2, h.scheduler().standbys());
    assertTrue(a.allocate(List.of(), List.of()).getCompletedContainersStatuses().isEmpty());
  }

  /**
   * Job a's containers parked on a node whose GPUs stay busy do not keep it from a standby where
   * its next GPU frees: with two parked on h1 (b took their GPUs) and one task waiting, a gets
   * a standby on h2, whose task (q's, started first) ends first. Before, a job got no standby
   * once it had as many, parked ones included, as waiting tasks, and its next task there
   * started in a new container.
   */
  @Test(timeout = 300_000)
  public void containersParkedElsewhereDoNotKeepAJobFromAStandbyWhereItsGpuFrees()
      throws Exception {
    h = HareRm.start(standbysAhead());
    nm = h.node("h1:1234", 2);
    MockNM h2 = h.node("h2:1234", 1);
    anotherJobsTaskRunsOn(h2);
    parkOnBothGpus();
    assertEquals(2, h.scheduler().standbys());

    h2.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<Container> got = h.heartbeatAndPull(a, h2);
    assertEquals("a's standby on h2", 1, got.size());
    assertEquals(h2.getNodeId(), got.get(0).getNodeId());
    assertEquals(0, HareRm.gpus(got.get(0)));
    assertEquals(3, h.scheduler().standbys());
  }

  /**
   * Parked containers do not use up a node's room for standbys made ahead (twice its GPUs): a
   * one-GPU node holding two jobs' parked containers still gets the standby of the job first in
   * line for its busy GPU.
   */
  @Test(timeout = 300_000)
  public void parkedContainersLeaveRoomForAStandbyMadeAhead() throws Exception {
    h = HareRm.start(standbysAhead());
    nm = h.node("h1:1234", 1);
    for (int j = 0; j < 2; j++) { // a job's first round runs, then its container is parked
      MockAM am = h.launch(h.submitHare("hare.rounds=3", "hare.tasks-per-round=1",
          "hare.standby=true"), nm);
      HareRm.askGpuTasks(am, 1);
      Container c = h.heartbeatAndPull(am, nm).get(0);
      nm.nodeHeartbeat(am.getApplicationAttemptId(), c.getId().getContainerId(),
          ContainerState.RUNNING);
      h.rm.drainEvents();
      HareRm.askGpuTasks(am, 0);
      am.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(c.getVersion(),
          c.getId(), ContainerUpdateType.DECREASE_RESOURCE, HareRm.resource(1024, 1, 0), null)));
      nm.nodeHeartbeat(true);
      h.rm.drainEvents();
    }
    assertEquals(2, h.scheduler().standbys());
    anotherJobsTaskRunsOn(nm);
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    HareRm.askGpuTasks(b, 1);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<Container> got = h.heartbeatAndPull(b, nm);
    assertEquals("b's standby, for q's GPU", 1, got.size());
    assertEquals(0, HareRm.gpus(got.get(0)));
    assertEquals(3, h.scheduler().standbys());
  }
}
