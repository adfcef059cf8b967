package io.hare.core.plan;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;

/** Exact plans of cluster states: busy GPUs, rounds in progress, the limits. */
public class ExactPlannerTest {

  private static final List<GpuType> TYPES = List.of(GpuType.of("v100"), GpuType.of("k80"));
  private static final long NOW = 10_000;
  private static final ExactPlanner PLANNER = new ExactPlanner(24, 8, 5);

  private static PlanJob job(String id, double weight, long releaseMs, int k, int firstRound,
      int firstGroup, int fullRounds, TaskTimes v100, TaskTimes k80, long committedEndMs) {
    return new PlanJob(id, weight, 0, releaseMs, k, firstRound, firstGroup, fullRounds,
        new TaskTimes[] {v100, k80}, committedEndMs);
  }

  private static PlanningProblem state(int[] types, long[] freeMs, PlanJob... jobs) {
    String[] ids = new String[types.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = "g" + i;
    }
    return new PlanningProblem(NOW, TYPES, types, freeMs, ids, List.of(jobs));
  }

  @Test(timeout = 60_000)
  public void aTaskWaitsForABusyFastGpuWhenThatEndsItFirst() {
    // the V100 frees at +100 and ends the task at +150; the free K80 would end it at +400
    PlanningProblem p = state(new int[] {0, 1}, new long[] {NOW + 100, NOW},
        job("a", 1, NOW, 1, 0, 1, 0, new TaskTimes(50, 0), new TaskTimes(400, 0), NOW));
    ExactPlanner.Result r = PLANNER.plan(p).orElseThrow();
    assertEquals(List.of(new PlannedTask("a", 0, NOW + 100, NOW + 150)),
        r.plan().perGpu().get("g0"));
    assertEquals(null, r.plan().perGpu().get("g1"));
    assertEquals(Long.valueOf(NOW + 150), r.plan().completionMs().get("a"));
    assertEquals((NOW + 150) / 1000.0, r.predictedWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void aRoundInProgressEndsNoEarlierThanItsRunningTasksSync() {
    // round 3: one task runs elsewhere and syncs by +300, one is unstarted; then round 4 (k=2)
    PlanningProblem p = state(new int[] {0, 0}, new long[] {NOW, NOW},
        job("b", 2, NOW, 2, 3, 1, 1, new TaskTimes(100, 0), null, NOW + 300));
    ExactPlanner.Result r = PLANNER.plan(p).orElseThrow();
    List<PlannedTask> all = new java.util.ArrayList<>();
    r.plan().perGpu().values().forEach(all::addAll);
    all.sort(java.util.Comparator.comparingLong(PlannedTask::startMs));
    assertEquals(3, all.size());
    assertEquals(new PlannedTask("b", 3, NOW, NOW + 100), all.get(0));
    assertEquals(4, all.get(1).round());
    assertEquals(NOW + 300, all.get(1).startMs());
    assertEquals(NOW + 300, all.get(2).startMs());
    assertEquals(Long.valueOf(NOW + 400), r.plan().completionMs().get("b"));
  }

  @Test(timeout = 60_000)
  public void theHeavierJobGoesFirstAndAJobWithNothingToStartIsConstant() {
    // one V100: a short heavy job before a long light one; c runs its last task already
    PlanningProblem p = state(new int[] {0}, new long[] {NOW},
        job("light", 1, NOW, 1, 0, 1, 0, new TaskTimes(400, 0), null, NOW),
        job("heavy", 4, NOW, 1, 0, 1, 0, new TaskTimes(100, 0), null, NOW),
        job("c", 1, NOW + 50, 1, 5, 0, 0, new TaskTimes(100, 0), null, NOW + 50));
    ExactPlanner.Result r = PLANNER.plan(p).orElseThrow();
    List<PlannedTask> seq = r.plan().perGpu().get("g0");
    assertEquals(List.of("heavy", "light"), seq.stream().map(PlannedTask::jobId).toList());
    assertEquals(Long.valueOf(NOW + 50), r.plan().completionMs().get("c"));
    assertEquals((4 * (NOW + 100) + (NOW + 500) + (NOW + 50)) / 1000.0, r.predictedWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void statesOutsideTheLimitsOrWithoutIntegerWeightsAreNotPlanned() {
    PlanJob big = job("big", 1, NOW, 5, 0, 5, 4, new TaskTimes(100, 0), null, NOW); // 25 tasks
    assertFalse(PLANNER.fits(state(new int[] {0}, new long[] {NOW}, big)));
    assertEquals(Optional.empty(), PLANNER.plan(state(new int[] {0}, new long[] {NOW}, big)));
    PlanJob small = job("s", 1, NOW, 1, 0, 1, 0, new TaskTimes(100, 0), null, NOW);
    int[] nine = new int[9];
    assertFalse(PLANNER.fits(state(nine, new long[9], small)));
    assertTrue(PLANNER.fits(state(new int[8], new long[8], small)));
    PlanJob third = job("t", 1.0 / 3, NOW, 1, 0, 1, 0, new TaskTimes(100, 0), null, NOW);
    assertEquals(Optional.empty(), PLANNER.plan(state(new int[] {0}, new long[] {NOW}, third)));
  }

  @Test(timeout = 60_000)
  public void theSameStateGivesTheSamePlan() {
    PlanningProblem p = state(new int[] {0, 0, 1, 1}, new long[] {NOW + 70, NOW, NOW, NOW + 30},
        job("a", 1.5, NOW, 2, 0, 2, 2, new TaskTimes(120, 40), new TaskTimes(300, 40), NOW),
        job("b", 3, NOW, 1, 1, 1, 3, new TaskTimes(90, 200), new TaskTimes(150, 200), NOW),
        job("c", 0.5, NOW + 200, 2, 2, 0, 2, new TaskTimes(400, 0), new TaskTimes(500, 0),
            NOW + 200));
    Map<String, List<PlannedTask>> first = PLANNER.plan(p).orElseThrow().plan().perGpu();
    for (int i = 0; i < 3; i++) {
      assertEquals(first, PLANNER.plan(p).orElseThrow().plan().perGpu());
    }
    int tasks = first.values().stream().mapToInt(List::size).sum();
    assertEquals(2 * 3 + 1 * 4 + 2 * 2, tasks);
  }
}
