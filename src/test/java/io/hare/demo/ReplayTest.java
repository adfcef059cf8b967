package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import io.hare.embedded.SchedulerJournal.Entry;
import io.hare.embedded.SchedulerJournal.Kind;
import io.hare.yarn.scheduler.HareSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * The replay on hand-made journals of one GPU and two jobs under yarn-fifo (arrival order, any
 * GPU): a journal FIFO could have produced is reproduced, one it could not is caught.
 */
public class ReplayTest {

  private static final String A = "application_1_0001";
  private static final String B = "application_1_0002";
  private static final String C = "application_1_0003";

  private static HareSettings fifo() throws Exception {
    Configuration c = new Configuration(false);
    c.set(SchedulerKeys.POLICY, "yarn-fifo");
    return HareSettings.read(c);
  }

  private static Entry asks(String app, int n, long ms) {
    return new Entry(Kind.ASKS, ms, app, null, null, null, n, false);
  }

  private static Entry consulted(long ms) {
    return new Entry(Kind.CONSULTED, ms, null, null, null, null, 0, false);
  }

  private static Entry started(String app, String c, long ms) {
    return new Entry(Kind.STARTED, ms, app, c, "h1", "v100", 0, false);
  }

  private static Entry ended(String app, String c, long ms) {
    return new Entry(Kind.ENDED, ms, app, c, null, null, 0, true);
  }

  /** A task process as the wrapper recorded it (its times do not enter the replay). */
  private static DemoResult.Task task(String app, int round, String c) {
    return new DemoResult.Task(app, round, 0, "h1", "v100", 0, c, 0, 1, "SUCCEEDED");
  }

  /**
   * One GPU. A (submitted first, 2 rounds) runs round 0 from 1000 to 2000 ms; B (1 round) asked
   * at 1500 and holds the GPU from 2000 to 3000; A's round 1 asks at 2500 and C (submitted after
   * A, 1 round) at 2800, so at 3000 both wait, and FIFO's answer is A, the older. The journal
   * says the GPU went to A first when {@code olderFirst}, else to C.
   */
  private static DemoResult run(boolean olderFirst) {
    String[] next = olderFirst ? new String[] {A, "a1", C, "c0"} : new String[] {C, "c0", A, "a1"};
    List<Entry> journal = List.of(
        asks(A, 1, 1000), consulted(1000), started(A, "a0", 1000), asks(A, 0, 1000),
        asks(B, 1, 1500), consulted(1500),
        ended(A, "a0", 2000), consulted(2000), started(B, "b0", 2000), asks(B, 0, 2000),
        asks(A, 1, 2500), consulted(2500), asks(C, 1, 2800), consulted(2800),
        ended(B, "b0", 3000), consulted(3000), started(next[0], next[1], 3000),
        asks(next[0], 0, 3000),
        ended(next[0], next[1], 4000), consulted(4000), started(next[2], next[3], 4000),
        asks(next[2], 0, 4000), ended(next[2], next[3], 5000), consulted(5000));
    List<DemoResult.Job> jobs = List.of(
        new DemoResult.Job(A, "a", 1, "graphsage", 2, 1, 0, 5100, "SUCCEEDED", true),
        new DemoResult.Job(B, "b", 1, "graphsage", 1, 1, 100, 3100, "SUCCEEDED", true),
        new DemoResult.Job(C, "c", 1, "graphsage", 1, 1, 200, 5100, "SUCCEEDED", true));
    List<DemoResult.Task> tasks = List.of(task(A, 0, "a0"), task(B, 0, "b0"), task(A, 1, "a1"),
        task(C, 0, "c0"));
    return new DemoResult("yarn-fifo", jobs, tasks, List.of(), journal, Map.of("h1", 1),
        Map.of("h1", "v100"));
  }

  @Test(timeout = 60_000)
  public void aScheduleThePolicyMadeIsReproducedTaskForTask() throws Exception {
    Replay.Outcome o = Replay.of(run(true), fifo());
    assertTrue(o.why(), o.allSame());
    Replay.NodeOrder n = o.nodes().get(0);
    assertEquals(List.of("a/r0", "b/r0", "a/r1", "c/r0"), n.real());
    assertEquals("the simulated starts are the scheduler's, from A's submission",
        List.of(1000L, 2000L, 3000L, 4000L), n.simulatedStartMs());
  }

  /**
   * A round's asks that reach the scheduler before the end of the round's last container (a
   * short sync step; a warm container's end reported late): the next round is ready when that
   * container's end is, and the replay still follows the run.
   */
  @Test(timeout = 60_000)
  public void aRoundAskedBeforeTheSchedulerHeardItsLastTaskEndReplays() throws Exception {
    List<Entry> journal = List.of(
        asks(A, 1, 1000), consulted(1000), started(A, "a0", 1000), asks(A, 0, 1000),
        asks(A, 1, 2300), consulted(2300),
        ended(A, "a0", 2500), consulted(2500), started(A, "a1", 2500), asks(A, 0, 2500),
        ended(A, "a1", 3500), consulted(3500));
    List<DemoResult.Job> jobs = List.of(
        new DemoResult.Job(A, "a", 1, "graphsage", 2, 1, 0, 3600, "SUCCEEDED", true));
    List<DemoResult.Task> tasks = List.of(
        new DemoResult.Task(A, 0, 0, "h1", "v100", 0, "a0", 1100, 2000, "SUCCEEDED"),
        new DemoResult.Task(A, 1, 0, "h1", "v100", 0, "a1", 2600, 3400, "SUCCEEDED"));
    Replay.Outcome o = Replay.of(new DemoResult("yarn-fifo", jobs, tasks, List.of(), journal,
        Map.of("h1", 1), Map.of("h1", "v100")), fifo());
    assertTrue(o.why(), o.allSame());
    assertEquals(List.of(1000L, 2500L), o.nodes().get(0).simulatedStartMs());
  }

  @Test(timeout = 60_000)
  public void aScheduleThePolicyWouldNotMakeIsCaught() throws Exception {
    Replay.Outcome o = Replay.of(run(false), fifo());
    assertFalse(o.allSame());
    assertEquals(List.of("a/r0", "b/r0", "c/r0", "a/r1"), o.nodes().get(0).real());
    assertEquals(List.of("a/r0", "b/r0", "a/r1", "c/r0"), o.nodes().get(0).simulated());
  }

  @Test(timeout = 60_000)
  public void aRunWithAFailedTaskIsNotReplayed() throws Exception {
    DemoResult r = run(true);
    List<DemoResult.Task> tasks = new ArrayList<>(r.tasks());
    tasks.add(new DemoResult.Task(A, 0, 0, "h1", "v100", 0, "a0-retry", 1200, 1300, "FAILED"));
    Replay.Outcome o = Replay.of(new DemoResult(r.policy(), r.jobs(), tasks, r.syncs(),
        r.journal(), r.gpusByHost(), r.typeByHost()), fifo());
    assertTrue(o.nodes().isEmpty());
    assertTrue(o.why(), o.why().contains("failed"));
  }
}
