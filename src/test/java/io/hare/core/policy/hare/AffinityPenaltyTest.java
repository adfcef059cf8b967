package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.FreeGpuIndex;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeCluster;
import io.hare.testing.FakeCluster.Gpu;
import io.hare.testing.FakeJob;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.Test;

/**
 * affinity-penalty: a type outside a job's affinity is a candidate whose task compares as if it
 * took (1 + penalty) times its time; Infinity bans it.
 */
public class AffinityPenaltyTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");
  /** a: 100 ms on a V100, 300 ms on a K80; the blocker holds the one V100 for 500 ms. */
  private static final TaskTimeModel TIMES = ProfileTable.builder()
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 300, 0)
      .put("blocker", "v100", 500, 0).build();

  /**
   * At 0 the V100 frees at 500, so a's task ends there at 600; the free K80 ends it at 300,
   * compared as 300 x (1 + penalty).
   */
  private static List<Assignment> dispatch(double penalty, Set<GpuType> affinity) {
    FakeJob a = new FakeJob("a", "cnn", 1, OptionalInt.of(3), TIMES);
    a.ready = 1;
    FakeJob blocker = new FakeJob("blocker", "blocker", 1, OptionalInt.of(1), TIMES);
    Gpu v0 = new Gpu("v0", V100, true);
    Gpu k0 = new Gpu("k0", K80, false);
    FakeCluster c = new FakeCluster(List.of(a, blocker), List.of(v0, k0), TIMES);
    RoundRanks ranks = new RoundRanks();
    ranks.put(a, 1);
    HareTracker tracker = new HareTracker();
    tracker.started(blocker, v0, 0);
    PriorityDispatcher d = new PriorityDispatcher(ranks, tracker, -1, Double.POSITIVE_INFINITY,
        penalty);
    d.refresh(a);
    if (affinity != null) {
      d.affinity().put("a", affinity, 0);
    }
    return d.assign(c, List.of(k0), 0, tracker, new FreeGpuIndex(), List.of());
  }

  @Test(timeout = 60_000)
  public void aJobTakesATypeOutsideItsAffinityOnlyWhenItStillEndsFirstWithThePenalty() {
    List<Assignment> onK80 = List.of(new Assignment("k0", "a"));
    // 300 x 1.5 = 450 < 600: the K80 still ends the round first
    assertEquals(onK80, dispatch(0.5, Set.of(V100)));
    // 300 x 2.5 = 750 > 600: a waits for the V100 its affinity names
    assertEquals(List.of(), dispatch(1.5, Set.of(V100)));
    // no penalty on the affinity's own types, nor for a job without affinity
    assertEquals(onK80, dispatch(1.5, Set.of(V100, K80)));
    assertEquals(onK80, dispatch(1.5, null));
    // 0: the affinity does not matter at dispatch
    assertEquals(onK80, dispatch(0, Set.of(V100)));
  }

  @Test(timeout = 60_000)
  public void infinityIsTheBan() {
    assertEquals(List.of(), dispatch(Double.POSITIVE_INFINITY, Set.of(V100)));
    // even where the job's task would end sooner there by any finite factor
    assertEquals(List.of(new Assignment("k0", "a")), dispatch(1e9, Set.of(K80)));
    assertEquals(List.of(new Assignment("k0", "a")),
        dispatch(Double.POSITIVE_INFINITY, Set.of(K80)));
  }

  @Test(timeout = 60_000)
  public void theKeyReadsInfinityAndRefusesValuesOutsideZeroToInfinity() throws Exception {
    Policies.create(HarePolicy.NAME, new PolicyConfig(
        Map.of(HareKeys.AFFINITY_PENALTY, "Infinity"), 1));
    Policies.create(HarePolicy.NAME, new PolicyConfig(
        Map.of(HareKeys.AFFINITY_PENALTY, "0"), 1));
    for (String bad : List.of("-0.5", "NaN", "inf", "high")) {
      try {
        Policies.create(HarePolicy.NAME, new PolicyConfig(
            Map.of(HareKeys.AFFINITY_PENALTY, bad), 1));
        fail(bad + " accepted");
      } catch (ConfigException e) {
        assertTrue(e.getMessage(), e.getMessage().contains(HareKeys.AFFINITY_PENALTY
            + ": must be a number in [0.0, Infinity], got '" + bad + "'"));
      }
    }
  }
}
