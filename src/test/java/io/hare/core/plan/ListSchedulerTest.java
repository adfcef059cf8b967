package io.hare.core.plan;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.plan.ListScheduler.GpuChoice;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** List scheduling by hand: both GPU choices, the barrier, switches, the cap, bad orders. */
public class ListSchedulerTest {

  private static final List<GpuType> AB = List.of(GpuType.of("a"), GpuType.of("b"));
  private static final ListScheduler.Options FREE =
      new ListScheduler.Options(GpuChoice.EARLIEST_FREE, 0, Integer.MAX_VALUE);
  private static final ListScheduler.Options FINISH =
      new ListScheduler.Options(GpuChoice.EARLIEST_FINISH, 0, Integer.MAX_VALUE);

  /**
   * GPU a0 (fast: 100 + 10) is busy until 30, b0 (slow: 300 + 20) is free at 0. X has one task
   * in each of rounds 3 and 4.
   */
  private static PlanningProblem fastBusySlowFree() {
    PlanJob x = new PlanJob("X", 2, 0, 0, 1, 3, 1, 1,
        new TaskTimes[] {new TaskTimes(100, 10), new TaskTimes(300, 20)}, 0);
    return new PlanningProblem(0, AB, new int[] {0, 1}, new long[] {30, 0},
        new String[] {"a0", "b0"}, List.of(x));
  }

  @Test(timeout = 60_000)
  public void earliestFreeTakesTheGpuFreeFirst() {
    // round 3: b0 is free first (0 < 30): 0-300, sync to 320.
    // round 4: ready at 320; a0 (free 30) is free before b0 (free 300): 320-420, sync to 430.
    Plan plan = ListScheduler.schedule(fastBusySlowFree(), List.of(ref(0, 0), ref(0, 1)), FREE,
        new String[2]);
    assertEquals(Map.of("a0", List.of(new PlannedTask("X", 4, 320, 420)),
        "b0", List.of(new PlannedTask("X", 3, 0, 300))), plan.perGpu());
    assertEquals(Map.of("X", 430L), plan.completionMs());
    assertTrue(plan.complete());
    // weight 2, arrival 0
    assertEquals(0.86, plan.predictedWeightedJctS(fastBusySlowFree()), 1e-12);
  }

  @Test(timeout = 60_000)
  public void earliestFinishWaitsForTheFasterGpu() {
    // round 3: a0 finishes at 30 + 100 + 10 = 140, b0 at 0 + 300 + 20 = 320: a0, 30-130, to 140.
    // round 4: ready 140; a0 (free 130) finishes at 140 + 110 = 250, b0 at 460: a0, 140-240.
    Plan plan = ListScheduler.schedule(fastBusySlowFree(), List.of(ref(0, 0), ref(0, 1)), FINISH,
        new String[2]);
    assertEquals(Map.of("a0", List.of(new PlannedTask("X", 3, 30, 130),
        new PlannedTask("X", 4, 140, 240)), "b0", List.of()), plan.perGpu());
    assertEquals(Map.of("X", 250L), plan.completionMs());
  }

  @Test(timeout = 60_000)
  public void nextGroupWaitsForTheSlowestSyncOfThePrevious() {
    // K: 2 tasks per round, rounds 0 and 1; a: 100 + 10, b: 100 + 50; both GPUs free at 0.
    // round 0: tie at 0 goes to the lower GPU index: a0 0-100 (to 110), then b0 0-100 (to 150).
    // round 1 is ready at max(110, 150) = 150 although both GPUs are free at 100:
    // a0 150-250 (to 260), b0 150-250 (to 300). Completion 300.
    PlanJob k = new PlanJob("K", 1, 0, 0, 2, 0, 2, 1,
        new TaskTimes[] {new TaskTimes(100, 10), new TaskTimes(100, 50)}, 0);
    PlanningProblem p = new PlanningProblem(0, AB, new int[] {0, 1}, new long[] {0, 0},
        new String[] {"a0", "b0"}, List.of(k));
    Plan plan = ListScheduler.schedule(p, List.of(ref(0, 0), ref(0, 1)), FREE, new String[2]);
    assertEquals(Map.of(
        "a0", List.of(new PlannedTask("K", 0, 0, 100), new PlannedTask("K", 1, 150, 250)),
        "b0", List.of(new PlannedTask("K", 0, 0, 100), new PlannedTask("K", 1, 150, 250))),
        plan.perGpu());
    assertEquals(Map.of("K", 300L), plan.completionMs());
  }

  @Test(timeout = 60_000)
  public void releaseAndRunningWorkAreRespected() {
    // R is released at 200 (its running round ends then) and its running work ends at 260:
    // its one task starts at 200 on a GPU free since 0 and ends 250 + 0 sync, so the job
    // completes at max(250, 260) = 260 as the running work is part of the same round.
    PlanJob r = new PlanJob("R", 1, 0, 200, 2, 0, 1, 0,
        new TaskTimes[] {new TaskTimes(50, 0), null}, 260);
    PlanningProblem p = new PlanningProblem(0, AB, new int[] {0}, new long[] {0},
        new String[] {"a0"}, List.of(r));
    Plan plan = ListScheduler.schedule(p, List.of(ref(0, 0)), FREE, new String[1]);
    assertEquals(List.of(new PlannedTask("R", 0, 200, 250)), plan.perGpu().get("a0"));
    assertEquals(Map.of("R", 260L), plan.completionMs());
  }

  @Test(timeout = 60_000)
  public void switchIsPaidWhenTheGpuChangesJob() {
    // one GPU that last ran Y; switch 5. X: rounds 0 and 1 of 100 + 10; Z: one task 50 + 0.
    // order X0, Z0, X1: X0 pays (Y -> X) 0-105, to 115; Z0 pays (X -> Z) 105-160;
    // X1 ready at 115, pays (Z -> X) 160-265, to 275.
    PlanningProblem p = oneGpuXz();
    ListScheduler.Options o = new ListScheduler.Options(GpuChoice.EARLIEST_FREE, 5, 100);
    Plan plan = ListScheduler.schedule(p, List.of(ref(0, 0), ref(1, 0), ref(0, 1)), o,
        new String[] {"Y"});
    assertEquals(List.of(new PlannedTask("X", 0, 0, 105), new PlannedTask("Z", 0, 105, 160),
        new PlannedTask("X", 1, 160, 265)), plan.perGpu().get("g"));
    assertEquals(Map.of("X", 275L, "Z", 160L), plan.completionMs());
    // order X0, X1, Z0: X1 follows X on the same GPU and pays nothing: 115-215, to 225;
    // Z0 pays: 215-270
    plan = ListScheduler.schedule(p, List.of(ref(0, 0), ref(0, 1), ref(1, 0)), o,
        new String[] {"Y"});
    assertEquals(List.of(new PlannedTask("X", 0, 0, 105), new PlannedTask("X", 1, 115, 215),
        new PlannedTask("Z", 0, 215, 270)), plan.perGpu().get("g"));
    assertEquals(Map.of("X", 225L, "Z", 270L), plan.completionMs());
    // a GPU that never ran anything costs no switch: X0 0-100, to 110
    plan = ListScheduler.schedule(p, List.of(ref(0, 0)), o, new String[1]);
    assertEquals(List.of(new PlannedTask("X", 0, 0, 100)), plan.perGpu().get("g"));
  }

  @Test(timeout = 60_000)
  public void taskCapStopsThePlanAndSaysSo() {
    // order X0 (1), Z0 (1), X1 (1) with a cap of 2 tasks: X1 is left out, so X has no
    // predicted completion and the plan is incomplete
    PlanningProblem p = oneGpuXz();
    Plan plan = ListScheduler.schedule(p, List.of(ref(0, 0), ref(1, 0), ref(0, 1)),
        new ListScheduler.Options(GpuChoice.EARLIEST_FREE, 0, 2), new String[1]);
    assertFalse(plan.complete());
    assertEquals(2, plan.perGpu().get("g").size());
    assertEquals(Map.of("Z", 150L), plan.completionMs());
    plan = ListScheduler.schedule(p, List.of(ref(0, 0), ref(1, 0), ref(0, 1)),
        new ListScheduler.Options(GpuChoice.EARLIEST_FREE, 0, 3), new String[1]);
    assertTrue(plan.complete());
    assertEquals(2, plan.completionMs().size());
  }

  @Test(timeout = 60_000)
  public void groupsOfAJobMustComeInOrder() {
    PlanningProblem p = oneGpuXz();
    assertBadOrder(p, List.of(ref(0, 1), ref(0, 0)), "order puts group 1 of job X before group 0");
    assertBadOrder(p, List.of(ref(0, 0), ref(0, 0)), "order puts group 0 of job X before group 1");
    assertBadOrder(p, List.of(ref(1, 0), ref(0, 0), ref(0, 2)),
        "order puts group 2 of job X before group 1");
  }

  @Test(timeout = 60_000)
  public void jobWithoutAUsableTypeIsRefused() {
    // B runs only on b, and the cluster has no b GPU
    PlanJob b = new PlanJob("B", 1, 0, 0, 1, 0, 1, 0, new TaskTimes[] {null,
        new TaskTimes(10, 0)}, 0);
    PlanningProblem p = new PlanningProblem(0, AB, new int[] {0}, new long[] {0},
        new String[] {"a0"}, List.of(b));
    try {
      ListScheduler.schedule(p, List.of(ref(0, 0)), FREE, new String[1]);
      fail("planned on a type it cannot run on");
    } catch (IllegalArgumentException e) {
      assertEquals("job B has no GPU type it can run on", e.getMessage());
    }
  }

  /** One GPU "g" of type a; X: rounds 0 and 1 of 100 + 10; Z: one task of 50 + 0. */
  private static PlanningProblem oneGpuXz() {
    PlanJob x = new PlanJob("X", 1, 0, 0, 1, 0, 1, 1,
        new TaskTimes[] {new TaskTimes(100, 10), null}, 0);
    PlanJob z = new PlanJob("Z", 1, 0, 0, 1, 0, 1, 0,
        new TaskTimes[] {new TaskTimes(50, 0), null}, 0);
    return new PlanningProblem(0, AB, new int[] {0}, new long[] {0}, new String[] {"g"},
        List.of(x, z));
  }

  private static void assertBadOrder(PlanningProblem p, List<GroupRef> order, String message) {
    try {
      ListScheduler.schedule(p, order, FREE, new String[1]);
      fail("bad order accepted: " + order);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }

  private static GroupRef ref(int job, int group) {
    return new GroupRef(job, group, 0);
  }
}
