package io.hare.core.plan;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.List;
import org.junit.Test;

/** Midpoints H = relaxed group start + max Tc / 2 on a hand-made relaxed solution. */
public class MidpointOrderTest {

  @Test(timeout = 60_000)
  public void midpointsFromTheCumulativeWorkSortedWithTies() {
    // types a and b have GPUs, c has none; now = 1000, grid (ms after now) 0, 100, 200, 400
    List<GpuType> types = List.of(GpuType.of("a"), GpuType.of("b"), GpuType.of("c"));
    TaskTimes a100 = new TaskTimes(100, 0);
    // X: groups of 2 and 2, runs on a (100) and b (300): max Tc / 2 = 150, released at now
    PlanJob x = new PlanJob("X", 1, 900, 1000, 2, 0, 2, 1,
        new TaskTimes[] {a100, new TaskTimes(300, 0), null}, 1000);
    // Y: one task, a only (50), released 50 ms after now
    PlanJob y = new PlanJob("Y", 1, 1000, 1050, 1, 0, 1, 0, new TaskTimes[] {a100, null, null},
        1050);
    // Z: one task on a (100) or c (1000); c has no GPU so its Tc does not count: + 50
    PlanJob z = new PlanJob("Z", 1, 800, 1000, 1, 0, 1, 0,
        new TaskTimes[] {a100, null, new TaskTimes(1000, 0)}, 1000);
    // W: groups of 1 and 2 on a only: + 50
    PlanJob w = new PlanJob("W", 1, 1000, 1000, 2, 0, 1, 1, new TaskTimes[] {a100, null, null},
        1000);
    PlanningProblem p = new PlanningProblem(1000, types, new int[] {0, 1}, new long[] {1000, 1000},
        new String[] {"a0", "b0"}, List.of(x, y, z, w));
    double[] grid = {0, 100, 200, 400};
    double[][] cumulative = {
        {0, 2, 3, 4},     // X
        {0, 0.5, 1, 1},   // Y
        {0, 0, 0, 1},     // Z
        {0, 0.5, 2.5, 3}, // W
    };
    FluidSolution s = new FluidSolution(true, 0, grid, cumulative, new double[4], new double[4][3],
        0);
    List<GroupRef> order = MidpointOrder.of(p, s);
    // X g0: work starts in [0, 100] from 0: 0 + 150 = 150
    // X g1: 2 tasks done exactly at 100, so it starts at 100: 100 + 150 = 250
    // Y g0: work in [0, 100] but released at 50: 50 + 50 = 100
    // Z g0: no work before 200: 200 + 50 = 250, ties with X g1; Z arrived first (800 < 900)
    // W g0: 0 + 50 = 50
    // W g1: after 1 task; 0.5 done by 100 and 2 more by 200: 100 + 100 x (1 - 0.5) / 2 = 125,
    //       + 50 = 175
    assertEquals(List.of(new GroupRef(3, 0, 50), new GroupRef(1, 0, 100), new GroupRef(0, 0, 150),
        new GroupRef(3, 1, 175), new GroupRef(2, 0, 250), new GroupRef(0, 1, 250)), order);
  }

  @Test(timeout = 60_000)
  public void equalKeysAndArrivalsGoByIdThenGroup() {
    // two identical one-group jobs listed as "b" then "a": ties by id put "a" first
    List<GpuType> types = List.of(GpuType.of("t"));
    TaskTimes[] tt = {new TaskTimes(40, 0)};
    PlanJob b = new PlanJob("b", 1, 0, 0, 1, 0, 1, 0, tt, 0);
    PlanJob a = new PlanJob("a", 1, 0, 0, 1, 0, 1, 0, tt, 0);
    PlanningProblem p = new PlanningProblem(0, types, new int[] {0}, new long[] {0},
        new String[] {"g"}, List.of(b, a));
    FluidSolution s = new FluidSolution(true, 0, new double[] {0, 10, 20},
        new double[][] {{0, 1, 1}, {0, 1, 1}}, new double[2], new double[2][1], 0);
    // both start at 0: H = 0 + 40 / 2 = 20
    assertEquals(List.of(new GroupRef(1, 0, 20), new GroupRef(0, 0, 20)), MidpointOrder.of(p, s));
  }
}
