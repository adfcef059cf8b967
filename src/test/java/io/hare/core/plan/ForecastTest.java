package io.hare.core.plan;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.List;
import org.junit.Test;

/** A forecast list-schedules what is left; a job with nothing left ends with its running round. */
public class ForecastTest {

  private static final List<GpuType> ONE = List.of(GpuType.of("v100"));

  @Test(timeout = 60_000)
  public void roundsFollowEachOtherWithTheirSyncs() {
    // J: the 1 unstarted task of round 0, then 1 whole round of 1 task; 10 s compute, 1 s sync.
    // D: all its tasks started, its sync ends at 5 s.
    PlanJob j = new PlanJob("J", 1, 0, 1_000, 1, 0, 1, 1,
        new TaskTimes[] {new TaskTimes(10_000, 1_000)}, 1_000);
    PlanJob d = new PlanJob("D", 1, 0, 5_000, 1, 3, 0, 0,
        new TaskTimes[] {new TaskTimes(10_000, 1_000)}, 5_000);
    PlanningProblem p = new PlanningProblem(1_000, ONE, new int[] {0}, new long[] {1_000},
        new String[] {"g0"}, List.of(j, d));
    Forecast f = Forecast.listScheduled(p, SmithOrder.of(p),
        new ListScheduler.Options(ListScheduler.GpuChoice.EARLIEST_FINISH, 0, 100), new String[1]);
    assertEquals(1_000, f.atMs());
    assertTrue(f.complete());
    assertEquals("1 + 10 + 1 s, then 10 + 1 s", 23_000, f.completionMs("J").getAsLong());
    assertEquals(5_000, f.completionMs("D").getAsLong());
    assertFalse(f.completionMs("nobody").isPresent());
  }

  @Test(timeout = 60_000)
  public void theTaskCapLeavesLaterJobsWithoutPrediction() {
    PlanJob a = new PlanJob("A", 2, 0, 0, 1, 0, 1, 0,
        new TaskTimes[] {new TaskTimes(1_000, 0)}, 0);
    PlanJob b = new PlanJob("B", 1, 0, 0, 1, 0, 1, 5,
        new TaskTimes[] {new TaskTimes(1_000, 0)}, 0);
    PlanningProblem p = new PlanningProblem(0, ONE, new int[] {0}, new long[] {0},
        new String[] {"g0"}, List.of(a, b));
    Forecast f = Forecast.listScheduled(p, SmithOrder.of(p),
        new ListScheduler.Options(ListScheduler.GpuChoice.EARLIEST_FINISH, 0, 3), new String[1]);
    assertFalse(f.complete());
    assertEquals(1_000, f.completionMs("A").getAsLong());
    assertFalse(f.completionMs("B").isPresent());
  }
}
