package io.hare.core.plan;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.Test;

/** Smith's rule on remaining GPU work on the fastest present type; groups keep their order. */
public class SmithOrderTest {

  @Test(timeout = 60_000)
  public void keyIsWorkOverWeight() {
    assertEquals(150.0, SmithOrder.key(600, 4), 0);
    assertEquals(600.0, SmithOrder.key(600, 1), 0);
  }

  @Test(timeout = 60_000)
  public void jobsByWeightOverRemainingWorkGroupsInOrder() {
    // types a and b have GPUs, c has none
    List<GpuType> types = List.of(GpuType.of("a"), GpuType.of("b"), GpuType.of("c"));
    // A: w 1, 3 tasks left (1 + one round of 2), fastest present type b at 50: 150 / 1 = 150
    PlanJob a = new PlanJob("A", 1, 0, 0, 2, 0, 1, 1,
        new TaskTimes[] {new TaskTimes(100, 0), new TaskTimes(50, 0), null}, 0);
    // B: w 3, 3 rounds of 1 on a at 200: 600 / 3 = 200
    PlanJob b = new PlanJob("B", 3, 0, 0, 1, 0, 1, 2,
        new TaskTimes[] {new TaskTimes(200, 0), null, null}, 0);
    // C: w 1, one task; 10 ms on c does not count (no c GPU): 300 on a, key 300
    PlanJob c = new PlanJob("C", 1, 0, 0, 1, 0, 1, 0,
        new TaskTimes[] {new TaskTimes(300, 0), null, new TaskTimes(10, 0)}, 0);
    // D: w 2, its current round fully started (first group 0), one round of 4 left on b at 60:
    // 240 / 2 = 120; sync times play no part
    PlanJob d = new PlanJob("D", 2, 0, 0, 4, 0, 0, 1,
        new TaskTimes[] {null, new TaskTimes(60, 500), null}, 0);
    PlanningProblem p = new PlanningProblem(0, types, new int[] {0, 1}, new long[] {0, 0},
        new String[] {"a0", "b0"}, List.of(a, b, c, d));
    List<GroupRef> order = SmithOrder.of(p);
    // D (120), A (150) x 2 groups, B (200) x 3 groups, C (300)
    int[][] expected = {{3, 0}, {0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 0}};
    assertEquals(expected.length, order.size());
    for (int i = 0; i < expected.length; i++) {
      assertEquals("position " + i, expected[i][0], order.get(i).job());
      assertEquals("position " + i, expected[i][1], order.get(i).group());
    }
    assertEquals(120, order.get(0).key(), 1e-6);
    assertEquals(150, order.get(1).key(), 1e-6);
    assertEquals(200, order.get(3).key(), 1e-6);
    assertEquals(300, order.get(6).key(), 1e-6);
  }

  @Test(timeout = 60_000)
  public void firstJobsKeepsTheHeadOfTheOrder() {
    List<GpuType> types = List.of(GpuType.of("a"));
    TaskTimes[] t100 = {new TaskTimes(100, 0)};
    // keys: A 1 x 100 / 1 = 100, B 3 x 100 / 1 = 300, C 2 x 100 / 4 = 50
    PlanJob a = new PlanJob("A", 1, 0, 0, 1, 0, 1, 0, t100, 0);
    PlanJob b = new PlanJob("B", 1, 0, 0, 1, 0, 1, 2, t100, 0);
    PlanJob c = new PlanJob("C", 4, 0, 0, 2, 0, 2, 0, t100, 0);
    PlanningProblem p = new PlanningProblem(7, types, new int[] {0}, new long[] {0},
        new String[] {"a0"}, List.of(a, b, c));
    int[] order = SmithOrder.jobOrder(p, SmithOrder.jobKeys(p), 2);
    PlanningProblem head = p.firstJobs(order, 2);
    assertEquals(List.of(c, a), head.jobs());
    assertEquals(7, head.nowMs());
    assertEquals(1, head.gpuCount());
    // 0 or a cap at least the number of jobs: the problem itself
    org.junit.Assert.assertSame(p, p.firstJobs(order, 0));
    org.junit.Assert.assertSame(p, p.firstJobs(order, 3));
  }

  /**
   * The job keys and job order give what the listed order does: every group's key, and the jobs
   * in the order the list first names them, hence the same first jobs for the LP.
   */
  @Test(timeout = 60_000)
  public void jobKeysAndOrderAgreeWithTheListedGroups() {
    Random r = new Random(5);
    for (int c = 0; c < 3000; c++) {
      PlanningProblem p = RandomProblems.of(r);
      List<GroupRef> listed = SmithOrder.of(p);
      double[] keys = SmithOrder.jobKeys(p);
      boolean[] present = p.presentTypes();
      List<Integer> firstNamed = new ArrayList<>();
      boolean[] named = new boolean[p.jobs().size()];
      for (GroupRef g : listed) {
        PlanJob j = p.jobs().get(g.job());
        double key = SmithOrder.key(j.unstartedTasks() * j.minComputeMs(present), j.weight());
        assertEquals(Double.doubleToLongBits(key + g.group() * 1e-9 * Math.max(1, key)),
            Double.doubleToLongBits(SmithOrder.groupKey(keys[g.job()], g.group())));
        if (!named[g.job()]) {
          named[g.job()] = true;
          firstNamed.add(g.job());
        }
      }
      for (int max = 0; max <= p.jobs().size() + 1; max++) {
        int[] order = SmithOrder.jobOrder(p, keys, max);
        assertEquals("case " + c + " max " + max,
            firstNamed.subList(0, Math.min(max, firstNamed.size())),
            Arrays.stream(order).boxed().toList());
        assertEquals("case " + c + " max " + max, firstJobsOfList(p, listed, max).jobs(),
            p.firstJobs(order, max).jobs());
      }
    }
  }

  /** The first jobs as the listed order names them, read off the list of groups. */
  private static PlanningProblem firstJobsOfList(PlanningProblem p, List<GroupRef> order,
      int max) {
    if (max == 0 || p.jobs().size() <= max) {
      return p;
    }
    boolean[] taken = new boolean[p.jobs().size()];
    List<PlanJob> head = new ArrayList<>();
    for (GroupRef g : order) {
      if (!taken[g.job()] && head.size() < max) {
        taken[g.job()] = true;
        head.add(p.jobs().get(g.job()));
      }
    }
    return new PlanningProblem(p.nowMs(), p.types(), p.gpuType(), p.gpuFreeMs(), p.gpuIds(), head);
  }
}
