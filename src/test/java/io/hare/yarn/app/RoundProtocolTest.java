package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.hare.core.ConfigException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.BeforeClass;
import org.junit.Test;

/** The AM's round protocol against scripted ports: every call it makes, in order. */
public class RoundProtocolTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  static HareJobSpec spec(int rounds, int k, int attempts, boolean sync) throws ConfigException {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.JOB_ROUNDS, Integer.toString(rounds));
    m.put(AppKeys.JOB_TASKS_PER_ROUND, Integer.toString(k));
    m.put(AppKeys.TASK_MAX_ATTEMPTS, Integer.toString(attempts));
    if (sync) {
      m.put(AppKeys.SYNC_COMMAND, "sync.sh");
    }
    return JobSpecValidator.read(JobSpecValidatorTest.conf(m));
  }

  @Test(timeout = 60_000)
  public void launchesEachContainerAsItArrivesAndWaitsAtTheBarrier() throws Exception {
    TestingAm am = new TestingAm(spec(2, 3, 1, true), 0);
    am.protocol.start();
    assertEquals(List.of("add", "add", "add"), am.take());
    // one container: launched at once, no waiting for the other two
    List<Container> first = am.allocate("v100-a", 1);
    assertEquals(List.of("remove", "start 1"), am.take());
    assertEquals(Map.of("HARE_JOB_ID", "application_1700000000000_0007", "HARE_ROUND", "0",
        "HARE_TASK_INDEX", "0", "HARE_TASKS_PER_ROUND", "3", "HARE_WORK_DIR", "/work/job",
        "HARE_GPU_TYPE", "v100"), am.started.get(1L));
    am.completeAll(first); // task 0 done before the others even started
    List<Container> rest = am.allocate("t4-b", 2);
    assertEquals(List.of("remove", "start 2", "remove", "start 3"), am.take());
    assertEquals("2", am.started.get(3L).get("HARE_TASK_INDEX"));
    assertEquals("t4", am.started.get(3L).get("HARE_GPU_TYPE"));
    am.complete(2, 0);
    assertEquals(List.of(), am.take());
    am.complete(3, 0);
    // the barrier: sync runs, round 1 does not ask yet
    assertEquals(List.of("sync 0"), am.take());
    assertEquals(0f, am.protocol.progress(), 0);
    am.syncs.get(0).accept(0);
    assertEquals(List.of("checkpoint 1", "add", "add", "add"), am.take());
    assertEquals(0.5f, am.protocol.progress(), 0);
    am.completeAll(am.allocate("v100-a", 3));
    assertEquals("1", am.started.get(6L).get("HARE_ROUND"));
    am.syncs.get(1).accept(0);
    assertEquals(new JobOutcome(true, 2, ""), am.protocol.outcome().orElseThrow());
    assertEquals(1f, am.protocol.progress(), 0);
  }

  @Test(timeout = 60_000)
  public void surplusContainersAreReleased() throws Exception {
    TestingAm am = new TestingAm(spec(1, 2, 1, false), 0);
    am.protocol.start();
    am.take();
    am.allocate("v100-a", 4); // YARN hands out more than asked
    assertEquals(List.of("remove", "start 1", "remove", "start 2", "release 3", "release 4"),
        am.take());
    am.complete(3, -100); // the released ones come back as aborted: not a task failure
    am.complete(1, 0);
    am.complete(2, 0);
    assertEquals(List.of("checkpoint 1"), am.take()); // no sync command: straight on
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void failedTaskIsRetriedOnAnyGpu() throws Exception {
    TestingAm am = new TestingAm(spec(1, 2, 3, true), 0);
    am.protocol.start();
    am.take();
    am.allocate("v100-a", 2);
    am.take();
    am.complete(1, 0);
    am.complete(2, 137);
    assertEquals(List.of("add"), am.take()); // one new ask, for task 1 only
    am.allocate("t4-b", 1);
    assertEquals(List.of("remove", "start 3"), am.take());
    assertEquals("1", am.started.get(3L).get("HARE_TASK_INDEX"));
    assertEquals("t4", am.started.get(3L).get("HARE_GPU_TYPE"));
    am.protocol.onStartFailed(ContainerId.newContainerId(TestingAm.ATTEMPT, 3),
        new IOException("NM gone"));
    // the node's fault: asked again away from it (TaskLossTest)
    assertEquals(List.of("release 3", "blacklist +t4-b", "add"), am.take());
    am.allocate("v100-a", 1);
    am.take();
    am.complete(4, 0);
    assertEquals(List.of("sync 0"), am.take());
    assertFalse(am.protocol.outcome().isPresent());
  }

  @Test(timeout = 60_000)
  public void lastFailedAttemptEndsTheJobNamingTaskExitCodeAndLog() throws Exception {
    TestingAm am = new TestingAm(spec(3, 2, 2, true), 0);
    am.protocol.start();
    am.allocate("v100-a", 2);
    am.complete(1, 0);
    am.complete(2, 3);
    am.allocate("t4-b", 1);
    am.take();
    am.complete(3, 42);
    JobOutcome o = am.protocol.outcome().orElseThrow();
    assertFalse(o.succeeded());
    assertEquals(0, o.roundsDone());
    String d = o.diagnostics();
    assertTrue(d, d.startsWith("round 0 task 1 failed 2 times; last attempt: exit code 42 on"
        + " container container_1700000000000_0007_01_000003 at t4-b:8041"));
    assertTrue(d, d.contains("yarn logs -applicationId application_1700000000000_0007"
        + " -containerId container_1700000000000_0007_01_000003"));
    assertTrue(d, d.contains("t4-b:8042/node/containerlogs/container_1700000000000_0007_01_000003"));
    assertTrue(d, d.endsWith("task said no"));
    assertEquals(List.of(), am.take()); // no more asks, no sync
    am.allocate("v100-a", 1);
    assertEquals(List.of("release 4"), am.take()); // late containers go back
  }

  @Test(timeout = 60_000)
  public void failedSyncEndsTheJob() throws Exception {
    TestingAm am = new TestingAm(spec(2, 1, 1, true), 0);
    am.protocol.start();
    am.completeAll(am.allocate("v100-a", 1));
    am.syncs.get(0).accept(9);
    JobOutcome o = am.protocol.outcome().orElseThrow();
    assertEquals(new JobOutcome(false, 0,
        "sync step of round 0 exited with code 9; output: sync-round-0.log"), o);
    assertFalse(am.take().contains("checkpoint 1"));
  }

  @Test(timeout = 60_000)
  public void resumesAfterTheCheckpointedRound() throws Exception {
    TestingAm am = new TestingAm(spec(4, 2, 1, true), 3);
    am.protocol.start();
    assertEquals(0.75f, am.protocol.progress(), 0);
    assertEquals(List.of("add", "add"), am.take());
    am.completeAll(am.allocate("v100-a", 2));
    assertEquals("3", am.started.get(1L).get("HARE_ROUND"));
    assertEquals(List.of("remove", "start 1", "remove", "start 2", "sync 3"), am.take());
    am.syncs.get(3).accept(0);
    assertEquals(new JobOutcome(true, 4, ""), am.protocol.outcome().orElseThrow());
  }

  @Test(timeout = 60_000)
  public void finishedJobResumesToSuccessWithoutAsking() throws Exception {
    TestingAm am = new TestingAm(spec(2, 2, 1, false), 2);
    am.protocol.start();
    assertEquals(List.of(), am.take());
    assertEquals(new JobOutcome(true, 2, ""), am.protocol.outcome().orElseThrow());
  }

  @Test(timeout = 60_000)
  public void abortWithdrawsOutstandingAsks() throws Exception {
    TestingAm am = new TestingAm(spec(2, 3, 1, false), 0);
    am.protocol.start();
    am.allocate("v100-a", 1);
    am.take();
    am.protocol.abort("shutdown requested by the ResourceManager");
    assertEquals(List.of("remove", "remove"), am.take());
    assertEquals("not the job's end: another attempt resumes it",
        new JobOutcome(false, 0, "shutdown requested by the ResourceManager", false),
        am.protocol.outcome().orElseThrow());
  }

  @Test(timeout = 60_000)
  public void aContainerWithoutGpuIsStartedAsAStandbyAndWithdrawsNoAsk() throws Exception {
    TestingAm am = new TestingAm(spec(1, 2, 1, false), 0, true);
    am.protocol.start();
    assertEquals(List.of("add", "add"), am.take());
    am.standby("v100-a");
    assertEquals(List.of("start 1"), am.take());
    Map<String, String> env = am.started.get(1L);
    assertEquals("1", env.get("HARE_STANDBY"));
    assertEquals("0", env.get("HARE_ROUND"));
    assertEquals("v100", env.get("HARE_GPU_TYPE"));
    assertNull("the runner learns its task from the AM", env.get("HARE_TASK_INDEX"));
    assertEquals("both tasks still ask", List.of(1L, 2L), am.asked);
    assertFalse("nothing to run yet", am.protocol.onRunnerReady(TestingAm.id(1)).isDone());
  }

  @Test(timeout = 60_000)
  public void aPromotedStandbyRunsTheNextWaitingTaskUnderTheAskItSatisfied() throws Exception {
    TestingAm am = new TestingAm(spec(1, 3, 1, false), 0, true);
    am.protocol.start();
    am.take();
    Container standby = am.standby("v100-a");
    CompletableFuture<Optional<RunnerServer.Next>> answer =
        am.protocol.onRunnerReady(standby.getId()); // its runner connected before the GPU freed
    am.allocate("t4-b", 1); // container 2: task 0, ask 1
    assertEquals(List.of("start 1", "remove", "start 2"), am.take());
    assertEquals("the AM polls fast while its standby waits", List.of(true), am.polling);
    am.promote(standby, 3);
    assertEquals(List.of("remove", "update 1 to 1 GPU"), am.take());
    assertEquals("and at its interval again once it has its GPU", List.of(true, false),
        am.polling);
    assertEquals("exactly the ask the scheduler consumed", List.of(2L), am.asked);
    assertEquals(Optional.of(new RunnerServer.Next(0, 1)), answer.getNow(null));
    // from now on a warm container: it runs task 2 next, under the last ask
    assertEquals(Optional.of(new RunnerServer.Next(0, 2)),
        am.protocol.onRunnerTaskEnded(standby.getId(), 0));
    assertEquals(List.of("remove", "task started in 1"), am.take());
    assertEquals(List.of(), am.asked);
    am.complete(2, 0);
    assertEquals(Optional.empty(), am.protocol.onRunnerTaskEnded(standby.getId(), 0));
    assertEquals(List.of("checkpoint 1"), am.take());
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void aStandbyPromotedWhenNoTaskWaitsIsReleasedAndItsRunnerExits() throws Exception {
    TestingAm am = new TestingAm(spec(2, 1, 1, false), 0, true);
    am.protocol.start();
    am.take();
    Container standby = am.standby("v100-a");
    am.allocate("t4-b", 1); // task 0 got a GPU elsewhere first
    am.take();
    am.promote(standby, 1);
    assertEquals("the scheduler gets the GPU back", List.of("release 1"), am.take());
    assertEquals(Optional.empty(), am.protocol.onRunnerReady(standby.getId()).getNow(null));
    am.complete(1, ContainerExitStatus.ABORTED);
    am.complete(2, 0);
    assertEquals(List.of("checkpoint 1", "add"), am.take());
  }

  @Test(timeout = 60_000)
  public void aStandbyKilledOrNotStartedBeforeItsPromotionIsNoFailure() throws Exception {
    TestingAm am = new TestingAm(spec(1, 1, 1, false), 0, true); // one failure ends the job
    am.protocol.start();
    am.take();
    Container killed = am.standby("v100-a");
    CompletableFuture<Optional<RunnerServer.Next>> answer =
        am.protocol.onRunnerReady(killed.getId());
    am.complete(1, ContainerExitStatus.KILLED_BY_RESOURCEMANAGER);
    assertEquals(Optional.empty(), answer.getNow(null));
    Container unstarted = am.standby("v100-a");
    am.protocol.onStartFailed(unstarted.getId(), new IOException("NM gone"));
    assertEquals("no new ask", List.of("start 1", "start 2", "release 2"), am.take());
    assertFalse(am.protocol.outcome().isPresent());
    am.completeAll(am.allocate("t4-b", 1));
    assertEquals(List.of("remove", "start 3", "checkpoint 1"), am.take());
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  /**
   * The scheduler promoted a standby that ended before the AM read the promotion (in one
   * heartbeat, YARN hands an AM completions before updates): the ask the promotion took is sent
   * again, so that the scheduler counts it outstanding once more, and the task runs elsewhere.
   */
  @Test(timeout = 60_000)
  public void aStandbyPromotedAfterItEndedHasItsAskSentAgain() throws Exception {
    TestingAm am = new TestingAm(spec(1, 1, 1, false), 0, true);
    am.protocol.start();
    am.take();
    Container standby = am.standby("v100-a");
    am.complete(1, ContainerExitStatus.KILLED_BY_RESOURCEMANAGER);
    am.promote(standby, 1);
    assertEquals(List.of("start 1", "remove", "add"), am.take());
    assertEquals("the ask stands", List.of(1L), am.asked);
    am.completeAll(am.allocate("t4-b", 1));
    assertEquals(List.of("remove", "start 2", "checkpoint 1"), am.take());
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void aPromotedStandbyEndingBeforeItsRunnerReportsFailsThatTask() throws Exception {
    TestingAm am = new TestingAm(spec(1, 1, 2, false), 0, true);
    am.protocol.start();
    am.take();
    Container standby = am.standby("v100-a");
    am.promote(standby, 1);
    am.take();
    // a runner that found no AM exits 0 having run nothing: no success for task 0
    am.complete(1, 0);
    assertEquals(List.of("add"), am.take());
    am.allocate("t4-b", 1);
    assertEquals("0", am.started.get(2L).get("HARE_TASK_INDEX"));
  }

  @Test(timeout = 60_000)
  public void theJobsEndReleasesItsStandbys() throws Exception {
    TestingAm am = new TestingAm(spec(1, 1, 1, false), 0, true);
    am.protocol.start();
    am.take();
    Container standby = am.standby("v100-a");
    CompletableFuture<Optional<RunnerServer.Next>> answer =
        am.protocol.onRunnerReady(standby.getId());
    am.completeAll(am.allocate("t4-b", 1));
    assertEquals(List.of("start 1", "remove", "start 2", "checkpoint 1", "release 1"),
        am.take());
    assertEquals(Optional.empty(), answer.getNow(null));
    am.standby("v100-a"); // one more, too late
    assertEquals(List.of("release 3"), am.take());
  }

  @Test(timeout = 60_000)
  public void anAmWithoutTaskRunnersReleasesAContainerWithoutGpu() throws Exception {
    TestingAm am = new TestingAm(spec(1, 1, 1, false), 0);
    am.protocol.start();
    am.take();
    am.standby("v100-a");
    assertEquals("it could not wait for a task", List.of("release 1"), am.take());
    assertEquals(List.of(1L), am.asked);
  }
}
