package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.plan.ExactSchedule;
import io.hare.core.plan.ExactSolver;
import io.hare.core.plan.PlannedTask;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.testing.Fig1;
import io.hare.testing.ScheduleChecks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Test;

/** hare and hare-paper on cases small enough to check by hand or against the exact optimum. */
public class HarePolicyTest {

  private static SimResult run(SchedulingPolicy p, ClusterSpec c, List<JobSpec> jobs,
      ProfileTable t) {
    SimResult r = new Simulator(c, jobs, t, SimOptions.defaults()).run(p);
    ScheduleChecks.assertValid(r, c, jobs, t, 0);
    return r;
  }

  /** Exact plans off: priority dispatch decides, as in clusters past exact.max-gpus. */
  private static final Map<String, String> PRIORITY = Map.of(HareKeys.EXACT_MAX_TASKS, "0");

  private static SchedulingPolicy hare(Map<String, String> conf) throws Exception {
    return Policies.create(HarePolicy.NAME, new PolicyConfig(conf, 1));
  }

  private static Set<String> typesOf(SimResult r, String job) {
    return r.tasks().stream().filter(t -> t.jobId().equals(job)).map(TaskRecord::gpuType)
        .collect(Collectors.toSet());
  }

  @Test(timeout = 60_000)
  public void beatsThePapersOwnScheduleOnItsFig1() throws Exception {
    // the optimum (7.5 s) is found by exhaustive search in BruteForceTest; the paper's own Hare
    // schedule takes 8.5 s
    SimResult r = run(hare(Map.of()), Fig1.cluster(), Fig1.jobs(), Fig1.profiles());
    assertTrue(r.totalWeightedJctS() >= Fig1.OPTIMAL_TOTAL_JCT_S - 1e-9);
    assertTrue(r.totalWeightedJctS() < Fig1.PAPER_HARE_TOTAL_JCT_S);
  }

  /** cnn is 7x faster on v100; gnn barely cares (220 vs 200 ms). */
  private static final ProfileTable AFFINITY = ProfileTable.builder()
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 700, 0)
      .put("gnn", "v100", 200, 0).put("gnn", "k80", 220, 0).build();

  @Test(timeout = 60_000)
  public void relaxationSendsEachJobToTheTypeWhereItGainsMost() throws Exception {
    // gnn ranks first (weight 3), so a greedy earliest-finish choice gives it the v100 and
    // leaves cnn to wait for it; the relaxation matches gnn to the k80 instead, and both run at
    // once
    // (exact plans off: the LP's affinity decides in clusters past exact.max-gpus)
    ClusterSpec c = ClusterSpec.parse("v100=1,k80=1");
    List<JobSpec> jobs = List.of(new JobSpec("g", 0, 3, "gnn", 1, 10),
        new JobSpec("c", 0, 1, "cnn", 1, 10));
    SimResult withAffinity = run(hare(PRIORITY), c, jobs, AFFINITY);
    assertEquals(Set.of("k80"), typesOf(withAffinity, "g"));
    assertEquals(Set.of("v100"), typesOf(withAffinity, "c"));
    // g: 10 x 220 ms on the k80; c: 10 x 100 ms on the v100, in parallel
    assertEquals(3 * 2.2 + 1 * 1.0, withAffinity.totalWeightedJctS(), 1e-9);

    SimResult greedy = run(hare(Map.of(HareKeys.AFFINITY_MIN_SHARE, "0",
        HareKeys.EXACT_MAX_TASKS, "0")), c, jobs,
        AFFINITY);
    assertTrue(typesOf(greedy, "g").contains("v100"));
    assertTrue(greedy.totalWeightedJctS() > withAffinity.totalWeightedJctS());
  }

  @Test(timeout = 60_000)
  public void roundRunsBackToBackOnFastGpusRatherThanOnMuchSlowerOnes() throws Exception {
    // k = 4 on two v100 and two k80: two tasks in a row on each v100 end the round at 200 ms;
    // any task on a k80 would end it at 700 ms
    ClusterSpec c = ClusterSpec.parse("v100=2,k80=2");
    List<JobSpec> jobs = List.of(new JobSpec("c", 0, 1, "cnn", 4, 3));
    SimResult r = run(hare(Map.of()), c, jobs, AFFINITY);
    assertEquals(Set.of("v100"), typesOf(r, "c"));
    List<Long> starts = r.tasks().stream().filter(t -> t.round() == 0)
        .map(TaskRecord::startMs).sorted().collect(Collectors.toList());
    assertEquals(List.of(0L, 0L, 100L, 100L), starts);
    assertEquals(3 * 200, r.jobs().get(0).completionMs());
  }

  @Test(timeout = 60_000)
  public void heavierJobGoesFirst() throws Exception {
    ClusterSpec c = ClusterSpec.parse("v100=1");
    List<JobSpec> jobs = List.of(new JobSpec("light", 0, 1, "cnn", 1, 5),
        new JobSpec("heavy", 0, 5, "cnn", 1, 5));
    SimResult r = run(hare(Map.of()), c, jobs, AFFINITY);
    Map<String, Long> done = r.jobs().stream()
        .collect(Collectors.toMap(o -> o.jobId(), o -> o.completionMs()));
    assertEquals(500L, (long) done.get("heavy"));
    assertEquals(1000L, (long) done.get("light"));
  }

  @Test(timeout = 60_000)
  public void replansOnlyWhenTasksHaveToWait() throws Exception {
    ClusterSpec c = ClusterSpec.parse("v100=8");
    // one plan when the first job arrives (nothing is known of the cluster before); b then
    // finds free v100s and needs none (exact plans off: with them, a cluster this small
    // re-plans at every arrival)
    List<JobSpec> light = List.of(new JobSpec("a", 0, 1, "cnn", 1, 3),
        new JobSpec("b", 1000, 1, "cnn", 2, 3));
    assertEquals(1, run(hare(PRIORITY), c, light, AFFINITY).replans());
    List<JobSpec> crowded = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      crowded.add(new JobSpec("j" + i, i, 1 + i % 3, "cnn", 4, 3));
    }
    assertTrue(run(hare(Map.of()), c, crowded, AFFINITY).replans() > 0);
  }

  @Test(timeout = 60_000)
  public void paperVariantRunsExactlyTheListSchedule() throws Exception {
    // all jobs arrive at once, so one plan covers everything and no estimate is off: every GPU
    // must run its planned tasks at their planned times
    HarePolicy p = HarePolicy.paper(PolicyConfig.defaults());
    SimResult r = run(p, Fig1.cluster(), Fig1.jobs(), Fig1.profiles());
    Map<String, List<PlannedTask>> plan = p.plan().perGpu();
    for (Map.Entry<String, List<PlannedTask>> e : plan.entrySet()) {
      List<TaskRecord> ran = r.tasks().stream().filter(t -> t.gpuId().equals(e.getKey()))
          .sorted(Comparator.comparingLong(TaskRecord::startMs)).collect(Collectors.toList());
      assertEquals(e.getKey(), e.getValue().size(), ran.size());
      for (int i = 0; i < ran.size(); i++) {
        assertEquals(e.getValue().get(i).jobId(), ran.get(i).jobId());
        assertEquals(e.getValue().get(i).startMs(), ran.get(i).startMs());
      }
    }
    assertTrue(r.totalWeightedJctS() >= Fig1.OPTIMAL_TOTAL_JCT_S);
  }

  @Test(timeout = 120_000)
  public void staysCloseToTheExactOptimumOnTinyInstances() throws Exception {
    // four GPU types with the paper's speed-ups; 4 jobs of up to 2 x 3 tasks with sync times
    ProfileTable.Builder b = ProfileTable.builder();
    String[] models = {"cnn", "nlp", "gnn"};
    double[][] speedup = {{1.5, 2.2, 6.9}, {1.25, 1.8, 5.55}, {1.2, 1.95, 2.2}};
    for (int m = 0; m < 3; m++) {
      double v = 800 + 200 * m;
      double k80 = v * speedup[m][2];
      b.put(models[m], "v100", v, 0.34 * v).put(models[m], "t4", k80 / speedup[m][1], 0.34 * v)
          .put(models[m], "m60", k80 / speedup[m][0], 0.34 * v).put(models[m], "k80", k80,
              0.34 * v);
    }
    ProfileTable t = b.build();
    ClusterSpec c = ClusterSpec.parse("v100=1,t4=1,k80=1,m60=1");
    double sum = 0;
    int n = 0;
    // 8 instances keep the suite fast: each CP-SAT proof takes seconds on one core
    for (int seed = 1; seed <= 8; seed++) {
      Random r = new Random(seed);
      List<JobSpec> jobs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        jobs.add(new JobSpec("j" + i, r.nextInt(3000), 1 + r.nextInt(4), models[r.nextInt(3)],
            1 + r.nextInt(2), 1 + r.nextInt(3)));
      }
      ExactSchedule opt = new ExactSolver(20, 1).solve(c, jobs, t);
      if (!opt.optimal()) {
        continue;
      }
      double ratio = run(hare(Map.of()), c, jobs, t).totalWeightedJctS() / opt.weightedJctS();
      assertTrue("seed " + seed + ": hare/optimum " + ratio, ratio >= 1 - 1e-9 && ratio < 1.4);
      sum += ratio;
      n++;
    }
    assertTrue("too few instances solved: " + n, n >= 6);
    assertTrue("mean hare/optimum " + sum / n, sum / n < 1.2);
  }
}
