package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.demo.DemoJob;
import io.hare.demo.DemoModel;
import io.hare.demo.DemoResult;
import io.hare.demo.Fault;
import io.hare.demo.Injected;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.SchedulerJournal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;

/**
 * What a run with the active ResourceManager going down in the middle (while two tasks run,
 * after a round finished) must show, whether a new RM starts in its place (rm-restart) or the
 * standby takes over (rm-failover), with work-preserving recovery, on two NodeManagers of 1
 * and 2 GPUs: nothing is lost. The applications, their AMs and their running task containers
 * go on; no task runs twice and no round is skipped.
 */
abstract class RmDownChecks {

  static final List<DemoJob> JOBS = List.of(
      new DemoJob("graphsage", DemoModel.GRAPHSAGE, 1, 3, 2, 0, 11),
      new DemoJob("resnet50", DemoModel.RESNET50, 2, 3, 2, 300, 12));
  static final List<EmbeddedCluster.Node> NODES = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 2));

  /** The run, with {@link #fault()} injected. */
  abstract DemoResult run();

  /** rm-restart or rm-failover. */
  abstract Fault fault();

  /**
   * Runs {@link #JOBS} with {@code fault}. Tasks of 1 s, so that the moment the fault waits for
   * (two tasks running after a round) lasts long enough for the run's 100 ms polls to see it
   * on a busy machine: with 200 ms tasks one CI run saw every round end without it, and the
   * fault was never injected.
   */
  static DemoResult runWith(String name, Fault fault) throws Exception {
    return FaultChecks.runWith(name, NODES, JOBS, EnumSet.of(fault), 240_000, 1, 1000);
  }

  @Test(timeout = 10_000)
  public void everyJobFinishesWithTheReferenceModel() {
    FaultChecks.injected(run(), fault());
    FaultChecks.jobsAsExpected(run());
  }

  @Test(timeout = 10_000)
  public void noRoundIsSkippedOrRunTwice() {
    FaultChecks.everyRoundOnceAndInOrder(run());
  }

  /** Work-preserving: no attempt failed or was lost, each task ran once, by the first AM. */
  @Test(timeout = 10_000)
  public void nothingIsLostOrRunAgain() {
    int tasks = JOBS.stream().mapToInt(j -> j.rounds() * j.tasksPerRound()).sum();
    assertEquals(FaultChecks.report(run()), tasks, run().tasks().size());
    for (DemoResult.Task t : run().tasks()) {
      assertEquals(t.toString(), "SUCCEEDED", t.state());
      assertEquals("the AM re-registered rather than restarting: " + t, 1, t.amAttempt());
    }
  }

  @Test(timeout = 10_000)
  public void theTasksRunningThroughTheRestartSucceed() {
    Injected restart = FaultChecks.injected(run(), fault());
    assertFalse(restart.toString(), restart.containers().isEmpty());
    for (String c : restart.containers()) {
      DemoResult.Task t = FaultChecks.task(run(), c, restart.atMs());
      assertEquals(t.toString(), "SUCCEEDED", t.state());
      assertTrue(t + " ended before the restart", t.endMs() > restart.atMs());
    }
  }

  /**
   * No scheduler counted a task twice: the AM's client sends its unanswered container updates
   * again when it re-registers with the restarted RM, and a warm container's "next task
   * started" sent again would count the task before it once more. (Tasks that ended while the
   * RM was down are never counted by the new one: docs/reliability.md.)
   */
  @Test(timeout = 10_000)
  public void noSchedulerCountsATaskTwice() {
    Map<String, Long> ran = run().tasks().stream().filter(t -> "SUCCEEDED".equals(t.state()))
        .collect(Collectors.groupingBy(DemoResult.Task::containerId, Collectors.counting()));
    Map<String, Long> counted = run().journal().stream()
        .filter(e -> e.kind() == SchedulerJournal.Kind.ENDED && e.succeeded())
        .collect(Collectors.groupingBy(SchedulerJournal.Entry::containerId,
            Collectors.counting()));
    counted.forEach((container, n) -> assertTrue(container + " ran " + ran.get(container)
        + " tasks, counted " + n + "\n" + FaultChecks.report(run()),
        n <= ran.getOrDefault(container, 0L)));
  }

  /** The recovered containers hold their GPUs in the new scheduler: no GPU ran two tasks. */
  @Test(timeout = 10_000)
  public void noNodeRanMoreTasksAtOnceThanItHasGpus() {
    for (String host : run().gpusByHost().keySet()) {
      List<long[]> spans = new ArrayList<>();
      run().tasks().stream().filter(t -> t.node().equals(host))
          .forEach(t -> spans.add(new long[] {t.startMs(), t.endMs()}));
      for (long[] s : spans) {
        long atOnce = spans.stream().filter(o -> o[0] <= s[0] && s[0] < o[1]).count();
        assertTrue(host + " ran " + atOnce + " tasks at " + s[0] + "\n" + FaultChecks.report(run()),
            atOnce <= run().gpusByHost().get(host));
      }
    }
  }
}
