package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.demo.DemoJob;
import io.hare.demo.DemoModel;
import io.hare.demo.DemoResult;
import io.hare.demo.Fault;
import io.hare.demo.FaultPlan;
import io.hare.demo.Injected;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.SchedulerJournal;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * The four faults of {@code hare demo --inject} that go together in one run ({@link FaultPlan},
 * what the command runs; rm-failover, which needs a second RM, has its own: RmFailoverIT), on a
 * MiniYARNCluster of four one-GPU NodeManagers: an ApplicationMaster is killed, then
 * the ResourceManager restarts, then a NodeManager vanishes, each after the cluster recovered
 * from the one before; one task fails once and one job's task always fails. Each test checks
 * one fault's claims on the same run.
 */
public class FaultsIT {

  private static final List<DemoJob> JOBS = List.of(
      // long enough that each fault finds its moment after the one before settled
      new DemoJob("graphsage", DemoModel.GRAPHSAGE, 1, 5, 2, 0, 1),
      new DemoJob("resnet50", DemoModel.RESNET50, 2, 4, 2, 300, 2));
  private static final List<EmbeddedCluster.Node> NODES = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 1),
      new EmbeddedCluster.Node("t4", 1), new EmbeddedCluster.Node("k80", 1));

  @ClassRule
  public static final Timeout RUN = Timeout.seconds(480);

  private static DemoResult run;

  @BeforeClass
  public static void runWithEveryFault() throws Exception {
    // tasks of 1 s, as in RmRestartIT: with 200 ms tasks and a container launch between two
    // tasks taking longer than a task, no two tasks ran at once after the AM failure in one CI
    // run, so the restart's moment (two tasks running) never came and neither fault after it ran
    // every fault that goes with an RM restart (a failover has its own run: RmFailoverIT)
    run = FaultChecks.runWith("FaultsIT", NODES, JOBS,
        EnumSet.complementOf(EnumSet.of(Fault.RM_FAILOVER)), 300_000, 2, 1000);
  }

  @Test(timeout = 10_000)
  public void everyJobButTheAlwaysFailingOneSucceedsWithTheReferenceModel() {
    FaultChecks.jobsAsExpected(run);
    assertEquals(run.injected().toString(), 5, run.injected().size()); // task-failure twice
    run.injected().forEach(i -> assertTrue(i.toString(), i.happened()));
  }

  @Test(timeout = 10_000)
  public void everyRoundRanOnceInOrderAndNoneWasSkipped() {
    FaultChecks.everyRoundOnceAndInOrder(run);
  }

  /** The next AM attempt starts with the round after the last one checkpointed. */
  @Test(timeout = 10_000)
  public void amFailureResumesFromTheLastFinishedRound() {
    Injected kill = FaultChecks.injected(run, Fault.AM_FAILURE);
    String amContainer = kill.containers().get(0);
    String appId = org.apache.hadoop.yarn.api.records.ContainerId.fromString(amContainer)
        .getApplicationAttemptId().getApplicationId().toString();
    DemoResult.Job j = run.jobs().stream().filter(x -> x.appId().equals(appId)).findFirst()
        .orElseThrow();
    long checkpointed = run.syncs().stream().filter(s -> s.appId().equals(appId)
        && s.exitCode() == 0 && s.endMs() >= 0 && s.endMs() <= kill.atMs()).count();
    assertTrue(kill + "\n" + FaultChecks.report(run), checkpointed >= 1);
    List<DemoResult.Task> second = run.tasks().stream().filter(t -> t.appId().equals(appId)
        && t.amAttempt() == 2).collect(Collectors.toList());
    assertFalse("no task of the second attempt\n" + FaultChecks.report(run), second.isEmpty());
    assertEquals("the second attempt's first task\n" + FaultChecks.report(run), checkpointed,
        second.get(0).round());
    assertTrue(second.stream().allMatch(t -> t.round() >= checkpointed));
    assertEquals("SUCCEEDED", j.finalState());
  }

  /** Tasks that ran through the restart were not lost or re-run. */
  @Test(timeout = 10_000)
  public void rmRestartKeepsTheRunningTasks() {
    Injected restart = FaultChecks.injected(run, Fault.RM_RESTART);
    Injected loss = FaultChecks.injected(run, Fault.NODE_LOSS);
    assertFalse(restart.toString(), restart.containers().isEmpty());
    for (String c : restart.containers()) {
      DemoResult.Task t = FaultChecks.task(run, c, restart.atMs());
      if (loss.containers().contains(c)) {
        continue; // the node loss afterwards took it
      }
      assertEquals(t + " ran through the restart\n" + FaultChecks.report(run), "SUCCEEDED",
          t.state());
      assertTrue(t.toString(), t.endMs() > restart.atMs());
      // an earlier AM attempt may have run the same round before the AM failure: the new
      // attempt re-runs rounds that were not checkpointed, so only this attempt counts here
      assertEquals(t + " was run again\n" + FaultChecks.report(run), 1, run.tasks().stream()
          .filter(x -> x.appId().equals(t.appId()) && x.amAttempt() == t.amAttempt()
              && x.round() == t.round() && x.index() == t.index()
              && "SUCCEEDED".equals(x.state())).count());
    }
  }

  /** Each task lost with the node ran again, and succeeded, on another node. */
  @Test(timeout = 10_000)
  public void nodeLossReRunsTheLostTasksElsewhere() {
    Injected loss = FaultChecks.injected(run, Fault.NODE_LOSS);
    assertFalse(loss.toString(), loss.containers().isEmpty());
    for (String c : loss.containers()) {
      DemoResult.Task lost = FaultChecks.task(run, c, loss.atMs());
      assertEquals(lost.toString(), "LOST", lost.state());
      List<DemoResult.Task> again = run.tasks().stream().filter(t -> t.appId()
          .equals(lost.appId()) && t.round() == lost.round() && t.index() == lost.index()
          && "SUCCEEDED".equals(t.state()) && t.startMs() > loss.atMs())
          .collect(Collectors.toList());
      assertEquals(lost + " re-ran\n" + FaultChecks.report(run), 1, again.size());
      assertNotEquals(again.get(0).toString(), lost.node(), again.get(0).node());
    }
  }

  @Test(timeout = 10_000)
  public void aTaskThatFailsOnceIsRetriedAndItsJobSucceeds() {
    List<DemoResult.Task> failed = run.tasks().stream().filter(t -> t.exitCode() == 3)
        .collect(Collectors.toList());
    assertEquals(FaultChecks.report(run), 1, failed.size());
    DemoResult.Task f = failed.get(0);
    assertEquals("FAILED", f.state());
    assertTrue(f + " was not retried\n" + FaultChecks.report(run), run.tasks().stream()
        .anyMatch(t -> t.appId().equals(f.appId()) && t.round() == f.round()
            && t.index() == f.index() && "SUCCEEDED".equals(t.state())
            && t.startMs() >= f.endMs()));
    assertTrue(run.jobs().stream().filter(j -> j.appId().equals(f.appId())).findFirst()
        .orElseThrow().succeeded());
    // the scheduler counts a container that ends with 0 as a task computed: the failed task's
    // container, told to exit by the AM after it, ends with the task's status instead
    List<SchedulerJournal.Entry> ends = run.journal().stream()
        .filter(e -> e.kind() == SchedulerJournal.Kind.ENDED
            && e.containerId().equals(f.containerId()))
        .collect(Collectors.toList());
    assertFalse(f + ": its container's end is not in the scheduler's journal", ends.isEmpty());
    assertFalse(f + " counted by the scheduler as computed: " + ends,
        ends.get(ends.size() - 1).succeeded());
  }

  @Test(timeout = 10_000)
  public void aTaskThatAlwaysFailsEndsItsJobWithADiagnostic() {
    DemoResult.Job j = FaultChecks.job(run, "always-fails");
    assertEquals("FAILED", j.finalState());
    List<DemoResult.Task> attempts = run.tasks().stream().filter(t -> t.appId()
        .equals(j.appId())).collect(Collectors.toList());
    assertEquals(FaultChecks.report(run), 3, attempts.size()); // task.max-attempts
    attempts.forEach(t -> assertEquals(t.toString(), 7, t.exitCode()));
    String last = attempts.get(2).containerId();
    for (String part : List.of("round 0 task 0 failed 3 times", "exit code 7", last,
        "yarn logs -applicationId " + j.appId())) {
      assertTrue("'" + part + "' in: " + j.diagnostics(), j.diagnostics().contains(part));
    }
  }
}
