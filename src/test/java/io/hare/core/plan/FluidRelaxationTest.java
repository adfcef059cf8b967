package io.hare.core.plan;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.ProfileTable;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/** The relaxation and the workload bound on cases worked out by hand, and their time grids. */
public class FluidRelaxationTest {

  private static final List<GpuType> AB = List.of(GpuType.of("a"), GpuType.of("b"));

  /**
   * A lone job of unprofiled tasks (no sync), one running on the only GPU: the first interval
   * ends at its round time, a double a few ulps above the whole millisecond at which the GPU
   * frees. Measured in a bench run: every re-plan of this state ended ABNORMAL before slivers of
   * capacity were dropped.
   */
  @Test(timeout = 60_000)
  public void aGpuFreeingAtAnIntervalsEndLeavesNoSliverOfCapacity() {
    PlanJob j = new PlanJob("app", 1, 0, 0, 6, 1, 2, 2,
        new TaskTimes[] {new TaskTimes(30374.000000000004, 0)}, 30374);
    PlanningProblem p = new PlanningProblem(0, List.of(GpuType.of("v100")), new int[] {0},
        new long[] {30374}, new String[] {"g0"}, List.of(j));
    for (int intervals : new int[] {4, 12, 32}) {
      FluidSolution s = FluidRelaxation.solve(p, new FluidRelaxation.Options(intervals, 5000));
      assertTrue(intervals + " intervals", s.optimal());
      // 14 tasks one after another from 30,374 ms: at least the work after the busy GPU
      assertTrue(intervals + " intervals: " + s.completionMs()[0],
          s.completionMs()[0] >= 30374 + 3 * 30374 - 1e-6);
      assertEquals(14, s.cumulative()[0][intervals], 1e-6);
    }
  }

  @Test(timeout = 60_000)
  public void singleJobAloneGetsExactlyItsCriticalPath() {
    // 3 rounds of 2 tasks, 100 + 20 on a; b would be faster (10 + 0) but has no GPU.
    // Critical path 3 x 120 = 360. The mean-busy-time row only asks for about 80 + 190 (the
    // first 2.4 tasks fit in the first 120 ms interval), so 360 is the relaxed completion.
    PlanJob j = new PlanJob("j", 1, 0, 0, 2, 0, 2, 2,
        new TaskTimes[] {new TaskTimes(100, 20), new TaskTimes(10, 0)}, 0);
    PlanningProblem p = new PlanningProblem(0, AB, new int[] {0, 0}, new long[] {0, 0},
        new String[] {"a0", "a1"}, List.of(j));
    FluidSolution s = FluidRelaxation.solve(p, new FluidRelaxation.Options(16, 0));
    assertTrue(s.optimal());
    assertEquals(360, s.completionMs()[0], 1e-6);
    assertEquals(360, s.objective(), 1e-6);
    // all 6 tasks done by the end, all on a
    assertEquals(6, s.cumulative()[0][16], 1e-6);
    assertEquals(1, s.typeShare()[0][0], 1e-9);

    // the workload bound: weight 2, arriving at 1000, alone: 2 x 0.36 s
    ProfileTable t = ProfileTable.builder().put("m", "a", 100, 20).put("m", "b", 10, 0).build();
    assertEquals(0.72, RelaxationBound.totalWeightedJctS(ClusterSpec.parse("a=2,b=0"),
        List.of(new JobSpec("j", 1000, 2, "m", 2, 3)), t), 1e-9);
  }

  @Test(timeout = 60_000)
  public void twoJobsOnOneGpuLieBetweenCriticalPathsAndTheBestOrder() {
    // one GPU. X: 1 task of 100 + 50 (critical path 150); Y: 2 rounds of 1 task, 200 + 0 (400).
    // Sum of critical paths: 550 ms. The orders, by hand:
    //   X, Y, Y: X 0-100 (done 150), Y 100-300, 300-500: 150 + 500 = 650
    //   Y, X, Y: Y 0-200, X 200-300 (done 350), Y 300-500: 350 + 500 = 850
    //   Y, Y, X: Y done 400, X 400-500 (done 550): 400 + 550 = 950
    // Best: 650 ms. (On its 150 ms intervals the LP comes to 562.5 ms by hand: X two thirds in
    // the first interval, Y's mean start 212.5 ms.)
    ProfileTable t = ProfileTable.builder().put("x", "a", 100, 50).put("y", "a", 200, 0).build();
    ClusterSpec one = ClusterSpec.parse("a=1");
    List<JobSpec> jobs = List.of(new JobSpec("X", 0, 1, "x", 1, 1),
        new JobSpec("Y", 0, 1, "y", 1, 2));
    double bound = RelaxationBound.totalWeightedJctS(one, jobs, t);
    assertTrue("bound " + bound + " not above the critical paths", bound > 0.55 + 1e-6);
    assertTrue("bound " + bound + " above the best order", bound <= 0.65 + 1e-9);
    // the hand-worked best order is the optimum
    assertEquals(0.65, new ExactSolver(5, 1).solve(one, jobs, t).weightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void spanBoundByHandForThreeRounds() {
    // k = 2: one task left of the current round, then 2 full rounds: groups 1, 2, 2; U = 5.
    // Tc = 100, Ts = 20. Groups after each: 1 x 2 + 2 x 1 + 2 x 0 = 4.
    // barrier: 20 + 100 / 2 + (100 + 20) x 4 / 5 = 166; rate: 5 x 100 / (2 x 2) + 20 = 145.
    PlanJob j = new PlanJob("j", 1, 0, 0, 2, 4, 1, 2, new TaskTimes[] {new TaskTimes(100, 20)}, 0);
    assertEquals(166, FluidRelaxation.spanBound(j, j.unstartedTasks(), 100, 20), 1e-9);
    // three full rounds of 3, Tc = 60, Ts = 0, U = 9: groups after 3 x 2 + 3 x 1 = 9.
    // barrier: 0 + 30 + 60 x 9 / 9 = 90; rate: 9 x 60 / 6 + 0 = 90: both forms agree.
    PlanJob f = new PlanJob("f", 1, 0, 0, 3, 0, 0, 3, new TaskTimes[] {new TaskTimes(60, 0)}, 0);
    assertEquals(90, FluidRelaxation.spanBound(f, f.unstartedTasks(), 60, 0), 1e-9);
    // k = 4, one task left then 2 rounds: groups 1, 4, 4; U = 9; Tc = 100, Ts = 0.
    // barrier: 50 + 100 x (1 x 2 + 4 x 1) / 9 = 116.67; rate: 9 x 100 / 8 = 112.5.
    PlanJob g = new PlanJob("g", 1, 0, 0, 4, 0, 1, 2, new TaskTimes[] {new TaskTimes(100, 0)}, 0);
    assertEquals(50 + 600.0 / 9, FluidRelaxation.spanBound(g, 9, 100, 0), 1e-9);
  }

  @Test(timeout = 60_000)
  public void relaxationGridIsGeometricFromZero() {
    // shortest round 25 + 6.25 = 31.25 = 1000 / 32: 6 intervals double each time up to 1000
    PlanJob j = new PlanJob("j", 1, 0, 0, 1, 0, 1, 3,
        new TaskTimes[] {new TaskTimes(25, 6.25), new TaskTimes(40, 0)}, 0);
    PlanningProblem p = new PlanningProblem(0, AB, new int[] {0, 1}, new long[] {0, 0},
        new String[] {"a0", "b0"}, List.of(j));
    assertArrayEquals(new double[] {0, 31.25, 62.5, 125, 250, 500, 1000},
        FluidRelaxation.grid(p, 6, 1000), 1e-9);
    // a first round longer than the horizon starts at half the horizon
    double[] g = FluidRelaxation.grid(p, 4, 20);
    assertEquals(0, g[0], 0);
    assertEquals(10, g[1], 1e-12);
    assertEquals(20, g[4], 0);
    assertIncreasing(g);
  }

  @Test(timeout = 60_000)
  public void boundGridCutsALadderAtEveryArrival() {
    // now = 5000, releases at 0, 1000 and 1050 ms after now, shortest round 100 ms,
    // resolution 0.5, horizon 3000 (end = max(3000, 1050 + 1500)). Each step is
    // max(100, 0.5 x time since the latest arrival), never past the next arrival.
    PlanningProblem p = threeArrivals();
    double[] g = RelaxationBound.grid(p, 3000, 0.5, 100);
    assertArrayEquals(new double[] {0, 100, 200, 300, 450, 675, 1000, 1050, 1150, 1250, 1350,
        1500, 1725, 2062.5, 2568.75, 3000}, g, 1e-9);

    // with room for only 10 intervals the ladders coarsen but the arrivals stay grid points
    g = RelaxationBound.grid(p, 3000, 0.5, 10);
    assertTrue(Arrays.toString(g), g.length <= 11);
    assertEquals(0, g[0], 0);
    assertEquals(3000, g[g.length - 1], 0);
    assertIncreasing(g);
    for (double arrival : new double[] {1000, 1050}) {
      assertTrue(arrival + " not in " + Arrays.toString(g),
          Arrays.stream(g).anyMatch(x -> x == arrival));
    }

    // fewer intervals than arrivals need (0, 100, 1000, 1050, 1150, 3000): equal steps
    assertArrayEquals(new double[] {0, 1000, 2000, 3000}, RelaxationBound.grid(p, 3000, 0.5, 3),
        1e-9);
  }

  private static PlanningProblem threeArrivals() {
    TaskTimes[] tt = {new TaskTimes(80, 20), null};
    List<PlanJob> jobs = List.of(new PlanJob("j0", 1, 5000, 5000, 1, 0, 1, 0, tt, 5000),
        new PlanJob("j1", 1, 6000, 6000, 1, 0, 1, 0, tt, 6000),
        new PlanJob("j2", 1, 6050, 6050, 1, 0, 1, 0, tt, 6050));
    return new PlanningProblem(5000, AB, new int[] {0}, new long[] {5000}, new String[] {"a0"},
        jobs);
  }

  private static void assertIncreasing(double[] g) {
    for (int i = 1; i < g.length; i++) {
      assertTrue(Arrays.toString(g), g[i] > g[i - 1]);
    }
  }
}
