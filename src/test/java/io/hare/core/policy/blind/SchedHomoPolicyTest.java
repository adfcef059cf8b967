package io.hare.core.policy.blind;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.testing.Workloads;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Test;

/** Sched_Homo on hand-checkable cases: type blindness, Smith's rule in batches, no preemption. */
public class SchedHomoPolicyTest {

  private static SimResult run(String cluster, List<JobSpec> jobs, TaskTimeModel truth,
      long seed) throws Exception {
    SchedulingPolicy p = Policies.create(SchedHomoPolicy.NAME, new PolicyConfig(Map.of(), seed));
    return new Simulator(ClusterSpec.parse(cluster), jobs, truth, SimOptions.defaults()).run(p);
  }

  private static long completion(SimResult r, String job) {
    return r.jobs().stream().filter(o -> o.jobId().equals(job)).mapToLong(JobOutcome::completionMs)
        .findFirst().orElseThrow();
  }

  private static long start(SimResult r, String job, int round, int index) {
    return r.tasks().stream()
        .filter(t -> t.jobId().equals(job) && t.round() == round && t.index() == index)
        .mapToLong(TaskRecord::startMs).findFirst().orElseThrow();
  }

  private static Set<String> startedAtZero(SimResult r) {
    return r.tasks().stream().filter(t -> t.startMs() == 0)
        .map(t -> t.jobId() + "@" + t.gpuId()).collect(Collectors.toSet());
  }

  @Test(timeout = 60_000)
  public void ignoresGpuTypes() throws Exception {
    // The same per-type times swapped between v100 and k80: averages over the 2+2 GPUs are
    // equal, so the decisions are too, although a type-aware policy would swap placements.
    ProfileTable fastV100 = ProfileTable.builder()
        .put("cnn", "v100", 100, 20).put("cnn", "k80", 700, 20)
        .put("gnn", "v100", 200, 10).put("gnn", "k80", 400, 10).build();
    ProfileTable fastK80 = ProfileTable.builder()
        .put("cnn", "v100", 700, 20).put("cnn", "k80", 100, 20)
        .put("gnn", "v100", 400, 10).put("gnn", "k80", 200, 10).build();
    // Smith ratios on the average GPU (cnn 400 ms, gnn 300 ms a task): B 3/600, C 2/800,
    // A 1/2400. The first batch (interval = C's span of 420 ms) admits only C; B and then A
    // take the GPUs C leaves free, so at time 0: C twice, B, and one task of A.
    List<JobSpec> jobs = List.of(new JobSpec("A", 0, 1, "cnn", 2, 3),
        new JobSpec("B", 0, 3, "gnn", 1, 2), new JobSpec("C", 0, 2, "cnn", 2, 1));
    for (long seed = 1; seed <= 5; seed++) {
      SimResult a = run("v100=2,k80=2", jobs, fastV100, seed);
      SimResult b = run("v100=2,k80=2", jobs, fastK80, seed);
      assertEquals(startedAtZero(a), startedAtZero(b));
      assertEquals(List.of("A", "B", "C", "C"), startedAtZero(a).stream()
          .map(s -> s.substring(0, 1)).sorted().collect(Collectors.toList()));
    }
  }

  @Test(timeout = 60_000)
  public void placementIsNotAlwaysTheFastType() throws Exception {
    // Blindness is real: across seeds the first cnn task lands on a k80 at least once.
    boolean sawK80 = false;
    for (long seed = 1; seed <= 20 && !sawK80; seed++) {
      SimResult r = run("v100=1,k80=1", List.of(new JobSpec("j", 0, 1, "cnn", 1, 1)),
          Workloads.profiles(), seed);
      sawK80 = r.tasks().get(0).gpuId().startsWith("k80");
    }
    assertTrue(sawK80);
  }

  @Test(timeout = 60_000)
  public void batchesBySmithRuleAndBackfills() throws Exception {
    // One v100 (cnn: 100 ms + 20 ms sync). Smith ratios: B 3/200 > C 1/100 > A 1/1000. The
    // first interval is C's span (120 ms), so the first batch is {C}: C 0-100. B backfills at
    // 100-200; while B syncs, A backfills 200-300; B's second round 300-400 (done 420) goes
    // before A's (A was admitted after B); A then runs its 9 remaining rounds from 400, one
    // every 120 ms, and ends at 400 + 9 x 120 - 0 = 1480.
    List<JobSpec> jobs = List.of(new JobSpec("A", 0, 1, "cnn", 1, 10),
        new JobSpec("B", 0, 3, "cnn", 1, 2), new JobSpec("C", 0, 1, "cnn", 1, 1));
    SimResult r = run("v100=1", jobs, Workloads.profiles(), 1);
    assertEquals(0, start(r, "C", 0, 0));
    assertEquals(100, start(r, "B", 0, 0));
    assertEquals(200, start(r, "A", 0, 0));
    assertEquals(300, start(r, "B", 1, 0));
    assertEquals(120, completion(r, "C"));
    assertEquals(420, completion(r, "B"));
    assertEquals(1480, completion(r, "A"));
  }

  @Test(timeout = 60_000)
  public void startedJobIsNotPreemptedByABetterRatio() throws Exception {
    // A (k=2) is admitted at 0 and runs 0-100; D, ten times heavier per unit of work, arrives
    // at 50 but A keeps the GPU for its second task (100-200); D only gets the GPU while A
    // syncs, at 200.
    List<JobSpec> jobs = List.of(new JobSpec("A", 0, 1, "cnn", 2, 3),
        new JobSpec("D", 50, 10, "cnn", 1, 1));
    SimResult r = run("v100=1", jobs, Workloads.profiles(), 1);
    assertEquals(100, start(r, "A", 0, 1));
    assertEquals(200, start(r, "D", 0, 0));
    assertNotEquals(100, start(r, "D", 0, 0));
  }
}
