package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * Golden timelines of the simulator under scripted policies, each worked out by hand in the
 * comments: the round barrier, sync off the GPU, switch cost, arrivals, rounding of task times,
 * completion and unfinished jobs.
 */
public class SimulatorTest {

  /** m: 100 ms + 30 ms sync on a, 200 + 5 on b. s: 100 + 50 on a. */
  private static final ProfileTable P = ProfileTable.builder()
      .put("m", "a", 100, 30).put("m", "b", 200, 5)
      .put("s", "a", 100, 50)
      .put("onlyb", "b", 100, 0)
      .put("tiny", "a", 0.3, 0.4).put("frac", "a", 100.4, 29.6).put("half", "a", 0.5, 0.5)
      .build();

  @Test(timeout = 60_000)
  public void nextRoundStartsAtTheLatestComputeEndPlusSync() {
    // J: 2 tasks per round, 2 rounds, one task on a-0 and one on b-0 each round.
    // round 0: a-0 computes 0-100, syncs to 130; b-0 computes 0-200, syncs to 205.
    // The barrier clears at max(130, 205) = 205, not at the first free GPU (a-0 at 100):
    // round 1: a-0 205-305, sync 335; b-0 205-405, sync 410. Completion 410.
    SimResult r = run("a=1,b=1", 0, TestingPolicy.rules(Map.of("a-0", "J", "b-0", "J")),
        new JobSpec("J", 0, 1, "m", 2, 2));
    assertEquals(List.of(
        new TaskRecord("J", 0, 0, "a-0", "a", 0, 0, 100, 130),
        new TaskRecord("J", 0, 1, "b-0", "b", 0, 0, 200, 205),
        new TaskRecord("J", 1, 0, "a-0", "a", 205, 205, 305, 335),
        new TaskRecord("J", 1, 1, "b-0", "b", 205, 205, 405, 410)), sorted(r));
    // completion is the end of the last round's sync: b-0's 410, not a-0's 335
    assertEquals(410, r.jobs().get(0).completionMs());
    assertEquals(0.41, r.jobs().get(0).jctS(), 1e-12);
    assertEquals(0, r.unfinishedJobs());
    // busy = compute only: 100 + 200 + 100 + 200
    assertEquals(600, r.busyGpuMs());
    assertEquals(2, r.gpus());
    assertEquals(0, r.switches());
  }

  @Test(timeout = 60_000)
  public void aTypeNoJobCanUseIsNamedAndLeftOutOfUtilisation() {
    // only m and s jobs, which have no times on c: its 3 GPUs can only idle
    ClusterSpec c = ClusterSpec.parse("a=1,c=3");
    List<JobSpec> jobs = List.of(new JobSpec("X", 0, 1, "s", 1, 1));
    Simulator sim = new Simulator(c, jobs, P, SimOptions.defaults());
    assertEquals(List.of(GpuType.of("c")), sim.unusableTypes());
    SimResult r = sim.run(TestingPolicy.firstComeFirstServed());
    assertEquals(1, r.gpus());
    // X computes 100 ms of a 150 ms makespan on the one usable GPU
    assertEquals(100.0 / 150, r.gpuUtilization(), 1e-12);
    assertEquals(List.of(), new Simulator(ClusterSpec.parse("a=1,b=1"),
        List.of(new JobSpec("Y", 0, 1, "m", 1, 1)), P, SimOptions.defaults()).unusableTypes());
  }

  @Test(timeout = 60_000)
  public void syncDoesNotHoldTheGpu() {
    // one GPU; X computes 0-100 and syncs 100-150 off the GPU, so Y starts at 100, during X's
    // sync: 100-200, sync to 250.
    SimResult r = run("a=1", 0, TestingPolicy.firstComeFirstServed(),
        new JobSpec("X", 0, 1, "s", 1, 1), new JobSpec("Y", 0, 1, "s", 1, 1));
    assertEquals(List.of(
        new TaskRecord("X", 0, 0, "a-0", "a", 0, 0, 100, 150),
        new TaskRecord("Y", 0, 0, "a-0", "a", 100, 100, 200, 250)), sorted(r));
    assertEquals(150, outcome(r, "X").completionMs());
    assertEquals(250, outcome(r, "Y").completionMs());
  }

  @Test(timeout = 60_000)
  public void switchIsPaidOnlyWhenTheGpuRanAnotherJob() {
    // switch 7 ms, one GPU, first come first served. X: 2 rounds, Y: 1 round, model s.
    // t=0    X round 0 on a fresh GPU: no switch, 0-100, sync to 150
    // t=100  X waits for its barrier; Y takes the GPU and pays 7: compute 107-207, sync 257
    // t=150  X round 1 ready, GPU busy
    // t=207  X again after Y: pays 7, compute 214-314, sync 364
    SimResult r = run("a=1", 7, TestingPolicy.firstComeFirstServed(),
        new JobSpec("X", 0, 1, "s", 1, 2), new JobSpec("Y", 0, 1, "s", 1, 1));
    List<TaskRecord> t = sorted(r);
    assertEquals(List.of(
        new TaskRecord("X", 0, 0, "a-0", "a", 0, 0, 100, 150),
        new TaskRecord("X", 1, 0, "a-0", "a", 207, 214, 314, 364),
        new TaskRecord("Y", 0, 0, "a-0", "a", 100, 107, 207, 257)), t);
    assertFalse(t.get(0).switched());
    assertTrue(t.get(1).switched());
    assertTrue(t.get(2).switched());
    assertEquals(2, r.switches());
    // the switches are not compute: 3 x 100
    assertEquals(300, r.busyGpuMs());
    assertEquals(364, outcome(r, "X").completionMs());
    assertEquals(257, outcome(r, "Y").completionMs());
  }

  @Test(timeout = 60_000)
  public void sameJobAgainPaysNoSwitch() {
    // X alone, 2 rounds, switch 7: 0-100 sync 150; 150-250 sync 300, never a switch
    SimResult r = run("a=1", 7, TestingPolicy.firstComeFirstServed(),
        new JobSpec("X", 0, 1, "s", 1, 2));
    assertEquals(List.of(
        new TaskRecord("X", 0, 0, "a-0", "a", 0, 0, 100, 150),
        new TaskRecord("X", 1, 0, "a-0", "a", 150, 150, 250, 300)), sorted(r));
    assertEquals(0, r.switches());
  }

  @Test(timeout = 60_000)
  public void jobsAreInvisibleAndUnplacedBeforeTheirArrival() {
    // Y arrives at 0 and runs 0-100 (sync 130); X arrives at 500 on an idle GPU: 500-600, 630
    List<Long> withX = new ArrayList<>();
    List<Long> withoutX = new ArrayList<>();
    TestingPolicy fcfs = TestingPolicy.firstComeFirstServed();
    TestingPolicy p = new TestingPolicy((cluster, free, now) -> {
      (cluster.job("X") != null ? withX : withoutX).add(now);
      return fcfs.assign(cluster, free, now);
    });
    SimResult r = run("a=1", 0, p, new JobSpec("X", 500, 2, "m", 1, 1),
        new JobSpec("Y", 0, 1, "m", 1, 1));
    assertEquals(List.of(
        new TaskRecord("X", 0, 0, "a-0", "a", 500, 500, 600, 630),
        new TaskRecord("Y", 0, 0, "a-0", "a", 0, 0, 100, 130)), sorted(r));
    assertEquals(0.13, outcome(r, "X").jctS(), 1e-12);
    // X is in the view from its arrival on, never before
    assertTrue(withX.toString(), withX.contains(500L));
    assertTrue(withX.toString(), withX.stream().allMatch(t -> t >= 500));
    assertTrue(withoutX.toString(), withoutX.contains(0L));
    assertTrue(withoutX.toString(), withoutX.stream().allMatch(t -> t < 500));
  }

  @Test(timeout = 60_000)
  public void taskTimesAreRoundedToWholeMillisecondsComputeAtLeastOne() {
    // tiny: compute 0.3 -> 1 (rounds to 0, raised to 1), sync 0.4 -> 0; 2 rounds: 0-1, 1-2
    // frac: compute 100.4 -> 100, sync 29.6 -> 30; 2 rounds: 0-100 sync 130, 130-230 sync 260
    // half: 0.5 rounds half up to 1 for both; 1 round: 0-1, sync 2
    SimResult r = run("a=3", 0,
        TestingPolicy.rules(Map.of("a-0", "T", "a-1", "F", "a-2", "H")),
        new JobSpec("T", 0, 1, "tiny", 1, 2), new JobSpec("F", 0, 1, "frac", 1, 2),
        new JobSpec("H", 0, 1, "half", 1, 1));
    assertEquals(List.of(
        new TaskRecord("F", 0, 0, "a-1", "a", 0, 0, 100, 130),
        new TaskRecord("F", 1, 0, "a-1", "a", 130, 130, 230, 260),
        new TaskRecord("H", 0, 0, "a-2", "a", 0, 0, 1, 2),
        new TaskRecord("T", 0, 0, "a-0", "a", 0, 0, 1, 1),
        new TaskRecord("T", 1, 0, "a-0", "a", 1, 1, 2, 2)), sorted(r));
    assertEquals(2, outcome(r, "T").completionMs());
    assertEquals(260, outcome(r, "F").completionMs());
    assertEquals(2, outcome(r, "H").completionMs());
  }

  @Test(timeout = 60_000)
  public void jobsThatCannotRunAreReportedUnfinished() {
    // "onlyb" has no profile on a and the cluster has no b GPU: B never runs, A does
    SimResult r = run("a=1,b=0", 0, TestingPolicy.firstComeFirstServed(),
        new JobSpec("A", 0, 1, "s", 1, 1), new JobSpec("B", 0, 1, "onlyb", 1, 1));
    assertEquals(150, outcome(r, "A").completionMs());
    assertEquals(-1, outcome(r, "B").completionMs());
    assertFalse(outcome(r, "B").finished());
    assertTrue(Double.isNaN(outcome(r, "B").jctS()));
    assertEquals(1, r.unfinishedJobs());

    // no GPUs at all
    SimResult empty = run("a=0", 0, TestingPolicy.firstComeFirstServed(),
        new JobSpec("A", 0, 1, "s", 1, 1));
    assertEquals(1, empty.unfinishedJobs());
    assertTrue(empty.tasks().isEmpty());

    // a policy that never places anything
    SimResult idle = run("a=2", 0, new TestingPolicy((c, f, now) -> List.of()),
        new JobSpec("A", 0, 1, "s", 1, 1), new JobSpec("C", 10, 1, "s", 2, 3));
    assertEquals(2, idle.unfinishedJobs());
    assertEquals(0, idle.busyGpuMs());
  }

  @Test(timeout = 60_000)
  public void tasksAreNotRecordedWhenTurnedOff() {
    SimResult r = new Simulator(ClusterSpec.parse("a=1"), List.of(new JobSpec("X", 0, 1, "s", 1,
        2)), P, new SimOptions(0, false)).run(TestingPolicy.firstComeFirstServed());
    assertTrue(r.tasks().isEmpty());
    assertEquals(300, r.jobs().get(0).completionMs());
  }

  static SimResult run(String cluster, long switchMs, TestingPolicy policy, JobSpec... jobs) {
    return new Simulator(ClusterSpec.parse(cluster), List.of(jobs), P,
        new SimOptions(switchMs, true)).run(policy);
  }

  @Test(timeout = 60_000)
  public void measuredDurationsReplaceTheToldTimesAndAStartUpDelaysTheFirstRound() {
    // told: model s, 100 ms + 50 sync on a. Measured: round 0 takes 300 ms + 20, round 1
    // 40 ms + 10. J is submitted at 10 and its first tasks are ready 90 ms later, at 100:
    // round 0 100-400, sync to 420; round 1 420-460, sync to 470. JCT from submission: 460 ms.
    TaskDurations measured = new TaskDurations() {
      @Override
      public io.hare.core.TaskTimes of(JobSpec job, int round, int index,
          io.hare.core.GpuType type) {
        return round == 0 ? new io.hare.core.TaskTimes(300, 20)
            : new io.hare.core.TaskTimes(40, 10);
      }

      @Override
      public long startupMs(JobSpec job) {
        return 90;
      }
    };
    SimResult r = new Simulator(ClusterSpec.parse("a=1"), List.of(new JobSpec("J", 10, 1, "s",
        1, 2)), P, measured, SimOptions.defaults()).run(TestingPolicy.firstComeFirstServed());
    assertEquals(List.of(
        new TaskRecord("J", 0, 0, "a-0", "a", 100, 100, 400, 420),
        new TaskRecord("J", 1, 0, "a-0", "a", 420, 420, 460, 470)), sorted(r));
    assertEquals(470, outcome(r, "J").completionMs());
    assertEquals(0.46, outcome(r, "J").jctS(), 1e-12);
  }

  private static List<TaskRecord> sorted(SimResult r) {
    List<TaskRecord> t = new ArrayList<>(r.tasks());
    t.sort(Comparator.comparing(TaskRecord::jobId).thenComparingInt(TaskRecord::round)
        .thenComparingInt(TaskRecord::index));
    return t;
  }

  private static JobOutcome outcome(SimResult r, String id) {
    return r.jobs().stream().filter(j -> j.jobId().equals(id)).findFirst().orElseThrow();
  }
}
