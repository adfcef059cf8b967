package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.PreemptionMessage;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.Test;

/**
 * The scheduler's side of warm containers: an AM's report that a container started its next task
 * is one task ended and one started on the same GPU, which never frees; a container of a job
 * that is not first in line for its GPU type is asked back with a negotiable preemption contract,
 * and under a policy that keeps no warm GPUs every task container is: all only for AMs that
 * declared the Hare protocol. Other AMs' containers are never asked back.
 */
public class WarmGpuTest extends MockRmTestCase {

  private static UpdateContainerRequest sameSize(Container c) {
    return UpdateContainerRequest.newInstance(c.getVersion(), c.getId(),
        ContainerUpdateType.DECREASE_RESOURCE, c.getResource(), null);
  }

  /** The containers of the negotiable contract; never a strict one (YARN would kill those). */
  private static Set<ContainerId> asked(PreemptionMessage m) {
    assertTrue("no strict contract", m == null || m.getStrictContract() == null);
    return m == null || m.getContract() == null ? Set.of()
        : m.getContract().getContainers().stream().map(c -> c.getId())
            .collect(Collectors.toSet());
  }

  /** The task starts and ends the scheduler tells its listeners of, from now on. */
  private List<String> startsAndEnds() {
    List<String> heard = new ArrayList<>();
    h.scheduler().addTaskListener(new TaskListener() {
      @Override
      public void taskStarted(ApplicationId app, ContainerId c, NodeId node, String type,
          long nowMs) {
        heard.add("started " + c.getContainerId());
      }

      @Override
      public void taskEnded(ApplicationId app, ContainerId c, boolean ok, long nowMs) {
        heard.add("ended " + c.getContainerId() + (ok ? "" : " failed"));
      }
    });
    return heard;
  }

  @Test(timeout = 300_000)
  public void aReportedNextTaskKeepsTheGpuAndCountsAsAnEndAndAStart() throws Exception {
    h = HareRm.start(HareRm.conf());
    List<String> heard = startsAndEnds();
    MockNM nm = h.node("h1:1234", 1);
    MockAM a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=2"), nm);
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> got = h.heartbeatAndPull(a, nm);
    assertEquals(1, got.size());
    Container c = got.get(0);
    HareRm.askGpuTasks(b, 1);
    // a's container runs a's second task: the AM withdraws that ask and reports the start
    HareRm.askGpuTasks(a, 0);
    a.sendContainerUpdateRequest(List.of(sameSize(c)));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    long id = c.getId().getContainerId();
    assertEquals(List.of("started " + id, "ended " + id, "started " + id), heard);
    assertEquals("the GPU never freed for b", 0, h.heartbeatAndPull(b, nm).size());
    assertEquals(1, h.scheduler().runningGpuTasks());
  }

  /**
   * The AM's "next task started" and the NodeManager's report that the container then ended can
   * reach the scheduler before any pass takes the first: both tasks still count, else the job is
   * a task short of its round for good and its next round is never placed (seen on Hadoop 3.4's
   * stock daemons: the third round of a job waited with every GPU free).
   */
  @Test(timeout = 300_000)
  public void aNextTaskStartedAndTheContainersEndBeforeAPassBothCount() throws Exception {
    h = HareRm.start(HareRm.conf());
    List<String> heard = startsAndEnds();
    MockNM nm = h.node("h1:1234", 1);
    MockAM a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> got = h.heartbeatAndPull(a, nm);
    assertEquals(1, got.size());
    Container c = got.get(0);
    // the container runs the round's second task, then ends, before the node heartbeats again
    HareRm.askGpuTasks(a, 0);
    a.sendContainerUpdateRequest(List.of(sameSize(c)));
    h.finish(nm, c);
    long id = c.getId().getContainerId();
    assertEquals(List.of("started " + id, "ended " + id, "started " + id, "ended " + id), heard);
    assertEquals("both tasks of round 1 counted", 1,
        h.scheduler().report().jobs().get(0).roundsDone());
    HareRm.askGpuTasks(a, 2);
    assertEquals("round 2 is placed on the free GPU", 1, h.heartbeatAndPull(a, nm).size());
  }

  /**
   * What a warm container's exit status tells the scheduler: its last task's result. The task
   * before was counted at the AM's report; a container that then ends with its failed task's
   * status counts nothing more, and the task's retry completes the round. Had it ended with 0,
   * the failed task would count as computed: round 1 done a task early, and its retry a task
   * past it (which is why the task runner and the workers end with their last task's status).
   */
  @Test(timeout = 300_000)
  public void aWarmContainerWhoseNextTaskFailedCountsOnlyTheTaskBefore() throws Exception {
    h = HareRm.start(HareRm.conf());
    List<String> heard = startsAndEnds();
    MockNM nm = h.node("h1:1234", 1);
    MockAM a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(a, 2);
    Container c = h.heartbeatAndPull(a, nm).get(0);
    HareRm.askGpuTasks(a, 0);
    a.sendContainerUpdateRequest(List.of(sameSize(c)));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    h.end(nm, c, 1); // the second task failed; its runner, told to exit, ends with its status
    long id = c.getId().getContainerId();
    assertEquals(List.of("started " + id, "ended " + id, "started " + id, "ended " + id
        + " failed"), heard);
    assertEquals("one task of round 1 computed", 0,
        h.scheduler().report().jobs().get(0).roundsDone());
    HareRm.askGpuTasks(a, 1); // the failed task, again
    Container retry = h.heartbeatAndPull(a, nm).get(0);
    h.finish(nm, retry);
    assertEquals("the retry completes round 1", 1,
        h.scheduler().report().jobs().get(0).roundsDone());
  }

  /**
   * Why the Hare AM hurries its report of a warm container's next task: once the NodeManager has
   * reported the container's end, YARN refuses the report as an update of an unknown container
   * before the scheduler sees it, and the task before it is never counted.
   */
  @Test(timeout = 300_000)
  public void aNextTaskReportedAfterTheContainersEndIsRefusedByYarn() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 1);
    MockAM a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(a, 1);
    Container c = h.heartbeatAndPull(a, nm).get(0);
    h.finish(nm, c);
    AllocateResponse late = a.sendContainerUpdateRequest(List.of(sameSize(c)));
    assertEquals(late.getUpdateErrors().toString(), 1, late.getUpdateErrors().size());
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals("one task counted of the two the container ran", 0,
        h.scheduler().report().jobs().get(0).roundsDone());
  }

  /**
   * StandaloneClusterIT's job as it hung, step by step: k = 3 on two V100s and a T4 (its
   * profile puts a third task on a V100 after another rather than on the T4), each round's
   * third task following in a warm container whose end the NodeManager reports before a pass
   * took the AM's report. Every round is counted and placed.
   */
  @Test(timeout = 300_000)
  public void roundsWhoseLastNextTaskIsUntakenAreCountedAndPlaced() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    Path profiles = Files.createTempFile("profiles", ".csv");
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\nresnet18,v100,210,40\n"
        + "resnet18,t4,520,40\n");
    conf.set(SchedulerKeys.PROFILES_FILE, profiles.toString());
    h = HareRm.start(conf);
    ControlledClock clock = h.controlledClock();
    MockNM v100 = h.node("h1:1234", 2);
    MockNM t4 = h.node("h2:1234", 1);
    h.setType("h1", "v100");
    h.setType("h2", "t4");
    MockAM a = h.launch(h.submitHare("hare.rounds=3", "hare.tasks-per-round=3",
        "hare.model=resnet18"), v100);
    for (int round = 1; round <= 3; round++) {
      HareRm.askGpuTasks(a, 3);
      List<Container> got = h.heartbeatAndPull(a, v100, t4);
      assertEquals("round " + round + " placed on the V100s", 2, got.size());
      clock.tickMsec(210);
      // the second container ends; the first goes on with the third task, and the AM
      // withdraws its ask
      h.finish(v100, got.get(1));
      a.sendContainerUpdateRequest(List.of(sameSize(got.get(0))));
      HareRm.askGpuTasks(a, 0);
      clock.tickMsec(210);
      h.finish(v100, got.get(0)); // before any pass took the AM's report
      SchedulerReport.Job job = h.scheduler().report().jobs().get(0);
      assertEquals("round " + round + " counted done", round, job.roundsDone());
      assertEquals("nothing runs between rounds", 0, job.runningTasks());
      clock.tickMsec(40);
    }
  }

  @Test(timeout = 300_000)
  public void aPolicyThatKeepsNoWarmGpusAsksForEveryTaskContainerBack() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.POLICY, "yarn-fifo");
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submitHare(), nm);
    HareRm.askGpuTasks(a, 3);
    List<Container> got = h.heartbeatAndPull(a, nm);
    assertEquals(2, got.size());
    PreemptionMessage m = a.allocate(List.of(), List.of()).getPreemptionMessage();
    assertEquals(got.stream().map(Container::getId).collect(Collectors.toSet()), asked(m));
  }

  @Test(timeout = 300_000)
  public void underHareOnlyAJobNotFirstInLineGivesItsGpuBack() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 1);
    // light and long: a heavier short job that arrives later goes first
    MockAM a = h.launch(h.submitHare("hare.weight=1", "hare.rounds=20", "hare.tasks-per-round=2"),
        nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> got = h.heartbeatAndPull(a, nm);
    assertEquals(1, got.size());
    assertNull("a alone: first in line, it keeps its GPU",
        a.allocate(List.of(), List.of()).getPreemptionMessage());
    MockAM b = h.launch(h.submitHare("hare.weight=8", "hare.rounds=1", "hare.tasks-per-round=1"),
        nm);
    HareRm.askGpuTasks(b, 1);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals(Set.of(got.get(0).getId()),
        asked(a.allocate(List.of(), List.of()).getPreemptionMessage()));
  }

  @Test(timeout = 300_000)
  public void anAmWithoutTheHareProtocolIsNeverAskedForItsGpus() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.POLICY, "yarn-fifo");
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 2);
    MockAM plain = h.launch(h.submit("hare.weight=1", "hare.rounds=20"), nm);
    HareRm.askGpuTasks(plain, 2);
    List<Container> got = h.heartbeatAndPull(plain, nm);
    assertEquals(2, got.size());
    MockAM hare = h.launch(h.submitHare("hare.weight=8", "hare.rounds=1"), nm);
    HareRm.askGpuTasks(hare, 1);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertNull("yarn-fifo keeps no warm GPU, yet a non-Hare AM is told nothing",
        plain.allocate(List.of(), List.of()).getPreemptionMessage());
  }
}
