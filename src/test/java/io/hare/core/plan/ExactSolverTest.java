package io.hare.core.plan;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.ProfileTable;
import io.hare.testing.Fig1;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.Test;

/** CP-SAT optima against hand-checked values and against the independent brute force. */
public class ExactSolverTest {

  private static final ExactSolver SOLVER = new ExactSolver(5, 1);

  @Test(timeout = 60_000)
  public void fig1OptimumIsSevenAndAHalfSeconds() {
    ExactSchedule s = SOLVER.solve(Fig1.cluster(), Fig1.jobs(), Fig1.profiles());
    assertTrue(s.optimal());
    assertFalse(s.timeLimitHit());
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S, s.weightedJctS(), 1e-9);
    // all arrive at 0 with weight 1: completion times and JCTs coincide
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S, s.weightedCompletionS(), 1e-9);
    assertTrue(s.weightedJctS() < Fig1.PAPER_HARE_TOTAL_JCT_S);
    ExactChecks.assertValid(s, Fig1.cluster(), Fig1.jobs(), Fig1.profiles());
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S,
        BruteForce.minWeightedJctS(Fig1.cluster(), Fig1.jobs(), Fig1.profiles()), 1e-9);
    ExactSchedule two = new ExactSolver(5, 2).solve(Fig1.cluster(), Fig1.jobs(), Fig1.profiles());
    assertTrue(two.optimal());
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S, two.weightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void randomTinyInstancesMatchTheBruteForce() {
    for (long seed = 1; seed <= 30; seed++) {
      Instance in = Instance.random(seed);
      ExactSchedule s = SOLVER.solve(in.cluster, in.jobs, in.profiles);
      String where = "seed " + seed + " " + in;
      assertTrue(where + ": not optimal", s.optimal());
      ExactChecks.assertValid(s, in.cluster, in.jobs, in.profiles);
      assertEquals(where, BruteForce.minWeightedJctS(in.cluster, in.jobs, in.profiles),
          s.weightedJctS(), 1e-9);
      double arrivals = in.jobs.stream().mapToDouble(j -> j.weight() * j.arrivalMs()).sum();
      assertEquals(where, s.weightedJctS() + arrivals / 1000.0, s.weightedCompletionS(), 1e-9);
    }
  }

  @Test(timeout = 60_000)
  public void relaxationBoundNeverExceedsTheOptimum() {
    for (long seed = 1; seed <= 30; seed++) {
      Instance in = Instance.random(seed);
      ExactSchedule s = SOLVER.solve(in.cluster, in.jobs, in.profiles);
      double bound = RelaxationBound.totalWeightedJctS(in.cluster, in.jobs, in.profiles);
      assertTrue("seed " + seed + ": bound " + bound + " > optimum " + s.weightedJctS(),
          bound <= s.weightedJctS() + 1e-9);
      // the planner's own relaxation on its geometric grid, coarse or fine, is a bound too:
      // its objective counts completions from the first arrival, so subtract the arrivals
      PlanningProblem p = RelaxationBound.offlineProblem(in.cluster, in.jobs, in.profiles);
      double arrivalsS = 0;
      for (PlanJob j : p.jobs()) {
        arrivalsS += j.weight() * (j.arrivalMs() - p.nowMs()) / 1000.0;
      }
      for (int intervals : new int[] {2, 8, 32}) {
        FluidSolution f = FluidRelaxation.solve(p, new FluidRelaxation.Options(intervals, 0));
        assertTrue("seed " + seed + ": not optimal with " + intervals, f.optimal());
        double fluid = f.objective() / 1000.0 - arrivalsS;
        assertTrue("seed " + seed + ", " + intervals + " intervals: relaxation " + fluid
            + " > optimum " + s.weightedJctS(), fluid <= s.weightedJctS() + 1e-9);
      }
    }
  }

  @Test(timeout = 60_000)
  public void identicalGpusAndTasksSpreadEvenly() {
    // 2 rounds of 4 tasks on 4 identical GPUs: one task per GPU per round, 2 x (100 + 30)
    ProfileTable p = ProfileTable.builder().put("m", "a", 100, 30).build();
    List<JobSpec> jobs = List.of(new JobSpec("j", 1000, 2, "m", 4, 2));
    ClusterSpec cluster = ClusterSpec.parse("a=4");
    ExactSchedule s = SOLVER.solve(cluster, jobs, p);
    assertTrue(s.optimal());
    assertEquals(2 * 0.260, s.weightedJctS(), 1e-9);
    assertEquals(2 * 1.260, s.weightedCompletionS(), 1e-9);
    assertEquals(1260L, (long) s.completionMs().get("j"));
    ExactChecks.assertValid(s, cluster, jobs, p);
  }

  @Test(timeout = 60_000)
  public void timesAreRoundedLikeTheSimulator() {
    // compute 0.2 ms rounds up to 1 ms, sync 10.4 to 10: two rounds take 2 x 11 ms
    ProfileTable p = ProfileTable.builder().put("m", "a", 0.2, 10.4).build();
    List<JobSpec> jobs = List.of(new JobSpec("j", 0, 1, "m", 1, 2));
    ExactSchedule s = SOLVER.solve(ClusterSpec.parse("a=1"), jobs, p);
    assertEquals(0.022, s.weightedJctS(), 1e-12);
  }

  @Test(timeout = 60_000)
  public void timeLimitGivesAValidScheduleAndAFlag() {
    // 60 tasks on 4 GPUs in a millisecond: nothing can be proven optimal
    ProfileTable p = ProfileTable.builder().put("m", "a", 100, 10).put("m", "b", 170, 20)
        .put("n", "a", 90, 5).put("n", "b", 95, 5).build();
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      jobs.add(new JobSpec("j" + i, 37L * i, 1 + i % 3, i % 2 == 0 ? "m" : "n", 5, 2));
    }
    ClusterSpec cluster = ClusterSpec.parse("a=2,b=2");
    ExactSchedule s = new ExactSolver(1e-3, 1).solve(cluster, jobs, p);
    assertTrue(s.timeLimitHit());
    assertFalse(s.optimal());
    ExactChecks.assertValid(s, cluster, jobs, p);
  }

  @Test(timeout = 60_000)
  public void tooBigInstancesAreRefusedWithTheLimit() {
    ProfileTable p = ProfileTable.builder().put("m", "a", 100, 0).build();
    List<JobSpec> jobs = List.of(new JobSpec("j", 0, 1, "m", 11, 10));
    try {
      SOLVER.solve(ClusterSpec.parse("a=2"), jobs, p);
      fail("110 tasks accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("110 tasks"));
      assertTrue(e.getMessage(), e.getMessage().contains("limit is " + ExactSolver.MAX_TASKS));
    }
    try {
      SOLVER.solve(ClusterSpec.parse("a=33"), List.of(new JobSpec("j", 0, 1, "m", 1, 1)), p);
      fail("33 GPUs accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(ExactSolver.MAX_GPUS + " GPUs"));
    }
  }

  @Test(timeout = 60_000)
  public void badInstancesAreRefused() {
    ProfileTable p = ProfileTable.builder().put("m", "a", 100, 0).build();
    ClusterSpec a = ClusterSpec.parse("a=1");
    assertRefused("cannot run", ClusterSpec.parse("b=2"), List.of(new JobSpec("j", 0, 1, "m", 1,
        1)), p);
    assertRefused("duplicate job id", a, List.of(new JobSpec("j", 0, 1, "m", 1, 1),
        new JobSpec("j", 0, 1, "m", 1, 1)), p);
    assertRefused("decimal places", a, List.of(new JobSpec("j", 0, 1.0 / 3, "m", 1, 1)), p);
  }

  @Test(timeout = 60_000)
  public void noJobsIsTriviallyOptimal() {
    ExactSchedule s = SOLVER.solve(ClusterSpec.parse("a=1"), List.of(),
        ProfileTable.builder().build());
    assertTrue(s.optimal());
    assertTrue(s.tasks().isEmpty());
    assertEquals(0, s.weightedJctS(), 0);
  }

  @Test(timeout = 60_000)
  public void solverArgumentsAreChecked() {
    for (double limit : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      try {
        new ExactSolver(limit, 1);
        fail("time limit " + limit + " accepted");
      } catch (IllegalArgumentException expected) {
        // refused
      }
    }
    try {
      new ExactSolver(1, 0);
      fail("0 workers accepted");
    } catch (IllegalArgumentException expected) {
      // refused
    }
  }

  private static void assertRefused(String why, ClusterSpec cluster, List<JobSpec> jobs,
      ProfileTable p) {
    try {
      SOLVER.solve(cluster, jobs, p);
      fail("accepted although " + why);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(why));
    }
  }

  /**
   * A random tiny instance: 2-3 GPUs whose types may repeat (so the GPU symmetry breaking is
   * exercised), 2-3 jobs with at most 6 tasks in all, arrivals, weights with one decimal, sync
   * times, and models that cannot run on some types. Package-private for the other plan tests.
   */
  record Instance(ClusterSpec cluster, List<JobSpec> jobs, ProfileTable profiles) {

    static Instance random(long seed) {
      Random r = new Random(seed);
      String[] types = {"a", "b", "c"};
      List<Gpu> gpus = new ArrayList<>();
      int nGpus = 2 + r.nextInt(2);
      for (int i = 0; i < nGpus; i++) {
        gpus.add(new Gpu("gpu" + i, GpuType.of(types[r.nextInt(types.length)]), "n0"));
      }
      ClusterSpec cluster = new ClusterSpec(gpus);
      double[] weights = {1, 2, 3, 0.5, 1.5};
      ProfileTable.Builder p = ProfileTable.builder();
      List<JobSpec> jobs = new ArrayList<>();
      int nJobs = 2 + r.nextInt(2);
      int budget = 6;
      // every fourth instance on a coarse grid, so the solver's time unit is above 1 ms
      int grain = seed % 4 == 0 ? 50 : 1;
      for (int j = 0; j < nJobs; j++) {
        int room = budget - (nJobs - j - 1); // leave one task for each job still to come
        int k = 1 + r.nextInt(Math.min(3, room));
        int rounds = 1 + r.nextInt(room / k);
        budget -= k * rounds;
        long arrival = r.nextInt(3) == 0 ? 0 : r.nextInt(400) / grain * grain;
        String model = "m" + j;
        jobs.add(new JobSpec("j" + j, arrival, weights[r.nextInt(weights.length)], model, k,
            rounds));
        boolean any = false;
        for (Gpu g : gpus) {
          boolean runs = r.nextInt(4) > 0 || (!any && g == gpus.get(gpus.size() - 1));
          if (runs && p.build().times(model, g.type()) == null) {
            p.put(model, g.type(), new TaskTimes(50 + r.nextInt(450) / grain * grain,
                r.nextInt(3) == 0 ? 0 : r.nextInt(150) / grain * grain));
          }
          any |= runs;
        }
      }
      return new Instance(cluster, jobs, p.build());
    }
  }
}
