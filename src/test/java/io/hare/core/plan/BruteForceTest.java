package io.hare.core.plan;

import static org.junit.Assert.assertEquals;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import io.hare.testing.Fig1;
import java.util.List;
import org.junit.Test;

/** The brute force itself, on cases small enough to check by hand. */
public class BruteForceTest {

  private static double min(String cluster, ProfileTable p, JobSpec... jobs) {
    return BruteForce.minWeightedJctS(ClusterSpec.parse(cluster), List.of(jobs), p);
  }

  @Test(timeout = 60_000)
  public void tasksOfOneRoundRunBackToBackOnOneGpu() {
    ProfileTable p = ProfileTable.builder().put("m", "a", 100, 10).build();
    // two tasks in a row on the only GPU: compute ends at 200, the second syncs until 210
    assertEquals(0.210, min("a=1", p, new JobSpec("j", 0, 1, "m", 2, 1)), 1e-12);
  }

  @Test(timeout = 60_000)
  public void bothTasksOnTheFastGpuBeatSplitting() {
    ProfileTable p = ProfileTable.builder().put("m", "fast", 100, 0).put("m", "slow", 300, 0)
        .build();
    // split: max(100, 300) = 300; both on fast: 200
    assertEquals(0.200, min("fast=1,slow=1", p, new JobSpec("j", 0, 1, "m", 2, 1)), 1e-12);
  }

  @Test(timeout = 60_000)
  public void shortJobFirstOnOneGpu() {
    ProfileTable p = ProfileTable.builder().put("long", "a", 300, 0).put("short", "a", 100, 0)
        .build();
    // short first: 100 + 400 = 500; long first: 300 + 400 = 700
    assertEquals(0.500, min("a=1", p, new JobSpec("l", 0, 1, "long", 1, 1),
        new JobSpec("s", 0, 1, "short", 1, 1)), 1e-12);
  }

  @Test(timeout = 60_000)
  public void weightsAndArrivalsCount() {
    ProfileTable p = ProfileTable.builder().put("long", "a", 300, 0).put("short", "a", 100, 0)
        .build();
    // the long job weighs 4: long first gives 4 x 300 + (400 - 0) = 1600, short first
    // 100 + 4 x (400 - 0) = 1700. The long job arrives at 50: long first 4 x 300 + 450 = 1650
    // (short waits until 350 and ends at 450), short first 100 + 4 x (400 - 50) = 1500.
    assertEquals(1.500, min("a=1", p, new JobSpec("l", 50, 4, "long", 1, 1),
        new JobSpec("s", 0, 1, "short", 1, 1)), 1e-12);
  }

  @Test(timeout = 60_000)
  public void syncGatesTheNextRoundButFreesTheGpu() {
    ProfileTable p = ProfileTable.builder().put("ps", "a", 100, 100).put("solo", "a", 100, 0)
        .build();
    // ps round 0 computes [0,100) and syncs until 200; solo uses the GPU in [100,200);
    // ps round 1 computes [200,300) and syncs until 400: total 400 + 200
    assertEquals(0.600, min("a=1", p, new JobSpec("ps", 0, 1, "ps", 1, 2),
        new JobSpec("solo", 0, 1, "solo", 1, 1)), 1e-12);
  }

  @Test(timeout = 60_000)
  public void jobsGoOnlyWhereTheyCanRun() {
    ProfileTable p = ProfileTable.builder().put("m", "slow", 500, 0).build();
    // the fast GPU has no profile for the model, so both tasks run on the slow one
    ProfileTable withFast = ProfileTable.builder().put("m", "slow", 500, 0)
        .put("other", "fast", 1, 0).build();
    assertEquals(1.0, min("fast=1,slow=1", withFast, new JobSpec("j", 0, 1, "m", 2, 1)), 1e-12);
    assertEquals(1.0, min("slow=1", p, new JobSpec("j", 0, 1, "m", 2, 1)), 1e-12);
  }

  @Test(timeout = 60_000)
  public void fig1OptimumIsSevenAndAHalfSeconds() {
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S,
        BruteForce.minWeightedJctS(Fig1.cluster(), Fig1.jobs(), Fig1.profiles()), 1e-12);
  }
}
