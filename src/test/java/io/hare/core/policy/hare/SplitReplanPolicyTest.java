package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.Replan;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeCluster;
import io.hare.testing.FakeCluster.Gpu;
import io.hare.testing.FakeJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.Test;

/**
 * hare's re-plan in two steps ({@link SchedulingPolicy#startReplan}): installed after its
 * snapshot, the plan ranks the jobs it saw, and a job that arrived in between is ranked by its
 * own Smith key as any arrival between plans, not left behind every ranked job.
 */
public class SplitReplanPolicyTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final TaskTimeModel TIMES = ProfileTable.builder()
      .put("long", "v100", 1000, 0).put("short", "v100", 100, 0).build();

  /** Exact plans off: the split re-plan of the order and affinity is what is tested. */
  private static SchedulingPolicy hare(String dispatch) throws Exception {
    return Policies.create(HarePolicy.NAME, new PolicyConfig(
        Map.of(HareKeys.DISPATCH, dispatch, HareKeys.EXACT_MAX_TASKS, "0"), 1));
  }

  @Test(timeout = 60_000)
  public void aJobArrivingDuringTheSolveIsRankedByItsOwnKeyAfterTheInstall() throws Exception {
    SchedulingPolicy policy = hare("priority");
    FakeJob slow = new FakeJob("long", "long", 1, OptionalInt.of(1), TIMES);
    slow.ready = 1;
    FakeJob quick = new FakeJob("short", "short", 1, OptionalInt.of(1), TIMES);
    quick.ready = 1;
    List<FakeJob> jobs = new ArrayList<>(List.of(slow));
    Gpu v0 = new Gpu("v0", V100, false);
    FakeCluster cluster = new FakeCluster(jobs, List.of(v0), TIMES);
    policy.onJobArrived(slow, 0);

    Optional<Replan> split = policy.startReplan(cluster, 0);
    assertTrue("priority dispatch splits its re-plan", split.isPresent());
    jobs.add(quick); // arrives while the solve runs: the snapshot has only "long"
    policy.onJobArrived(quick, 5);
    assertEquals("nothing free offered: the arrival is only ranked", List.of(),
        policy.assign(cluster, List.of(), 5));
    split.get().solve().install(cluster, 10);

    // by Smith's rule the 100 ms job goes first; unranked it would go after "long"
    assertEquals(List.of(new Assignment("v0", "short")), policy.assign(cluster, List.of(v0),
        10));
  }

  @Test(timeout = 60_000)
  public void aJobLeavingDuringTheSolveIsNotServedAfterTheInstall() throws Exception {
    SchedulingPolicy policy = hare("priority");
    FakeJob slow = new FakeJob("long", "long", 1, OptionalInt.of(1), TIMES);
    slow.ready = 1;
    FakeJob quick = new FakeJob("short", "short", 1, OptionalInt.of(1), TIMES);
    quick.ready = 1;
    List<FakeJob> jobs = new ArrayList<>(List.of(slow, quick));
    Gpu v0 = new Gpu("v0", V100, false);
    FakeCluster cluster = new FakeCluster(jobs, List.of(v0), TIMES);
    policy.onJobArrived(slow, 0);
    policy.onJobArrived(quick, 0);

    Replan r = policy.startReplan(cluster, 0).orElseThrow();
    jobs.remove(quick); // killed while the solve runs
    policy.onJobDone(quick, 5);
    r.solve().install(cluster, 10);

    assertEquals(List.of(new Assignment("v0", "long")), policy.assign(cluster, List.of(v0), 10));
  }

  /**
   * An AM that asks ahead of its declared round (k = 1, three asks) is planned with one round
   * now and its declared rounds after: its asks never make the re-plan fail, which would keep
   * every job on the previous plan.
   */
  @Test(timeout = 60_000)
  public void aJobAskingMoreThanItsRoundIsPlannedAndPlaced() throws Exception {
    SchedulingPolicy policy = hare("priority");
    FakeJob ahead = new FakeJob("long", "long", 1, OptionalInt.of(4), TIMES);
    ahead.ready = 3;
    Gpu v0 = new Gpu("v0", V100, false);
    Gpu v1 = new Gpu("v1", V100, false);
    FakeCluster cluster = new FakeCluster(List.of(ahead), List.of(v0, v1), TIMES);
    policy.onJobArrived(ahead, 0);

    policy.replan(cluster, 0);

    assertEquals(2, policy.assign(cluster, List.of(v0, v1), 0).size());
  }

  /**
   * An exact plan stops deciding at the event that makes it wrong, not at the install of the
   * re-plan the event asked for: asks the plan did not count (k = 1, three asks where it planned
   * one) go to priority dispatch, which places two of them on the two free GPUs, while the solve
   * runs; the exact plan installed after it counts one round now, as the one before did.
   */
  @Test(timeout = 60_000)
  public void anExactPlanStopsAtTheAsksItDidNotCountUntilTheRePlanIsInstalled()
      throws Exception {
    SchedulingPolicy policy = Policies.create(HarePolicy.NAME, PolicyConfig.defaults());
    FakeJob ahead = new FakeJob("long", "long", 1, OptionalInt.of(4), TIMES);
    ahead.ready = 1;
    Gpu v0 = new Gpu("v0", V100, false);
    Gpu v1 = new Gpu("v1", V100, false);
    FakeCluster cluster = new FakeCluster(List.of(ahead), List.of(v0, v1), TIMES);
    policy.onJobArrived(ahead, 0);
    policy.replan(cluster, 0); // exact: one task now on one GPU, the other idle

    ahead.ready = 3;
    policy.onTasksReady(ahead, 1);
    Replan r = policy.startReplan(cluster, 1).orElseThrow();
    assertEquals("priority dispatch while the solve runs", 2,
        policy.assign(cluster, List.of(v0, v1), 1).size());
    r.solve().install(cluster, 2);
    assertEquals("the exact plan again: one round now", 1,
        policy.assign(cluster, List.of(v0, v1), 2).size());
  }

  @Test(timeout = 60_000)
  public void aPlanToFollowIsNotSplit() throws Exception {
    SchedulingPolicy policy = hare("plan");
    FakeCluster cluster = new FakeCluster(List.of(), List.of(new Gpu("v0", V100, false)), TIMES);
    assertTrue(policy.startReplan(cluster, 0).isEmpty());
  }
}
