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
 * took (1 + penalty) times its time, for a ready round and for a hold across a sync alike;
 * Infinity bans it.
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

  /** h: next round at 100 after a sync on the K80; l: a 1000 ms task, K80 only. */
  private static final TaskTimeModel HOLD_TIMES = ProfileTable.builder()
      .put("h", "v100", 100, 100).put("h", "k80", 300, 100)
      .put("blocker", "v100", 500, 0)
      .put("l", "k80", 1000, 0).build();

  /**
   * The same penalty in a hold across a sync. At 0, h (ranked first) syncs until 100; the V100
   * runs the blocker until 500, so h's next task ends there at 700; the free K80, held from 100,
   * ends it at 500, compared as 100 + 400 x (1 + penalty). When h holds the K80, l (ranked
   * second, a 1000 ms task that cannot backfill the 100 ms left) gets nothing; when h waits for
   * the V100, l takes the K80.
   */
  private static List<Assignment> holdThenDispatch(double penalty, Set<GpuType> affinity) {
    FakeJob h = new FakeJob("h", "h", 1, OptionalInt.of(3), HOLD_TIMES);
    FakeJob blocker = new FakeJob("blocker", "blocker", 1, OptionalInt.of(1), HOLD_TIMES);
    FakeJob l = new FakeJob("l", "l", 1, OptionalInt.of(3), HOLD_TIMES);
    l.ready = 1;
    Gpu v0 = new Gpu("v0", V100, true);
    Gpu k0 = new Gpu("k0", K80, false);
    HareTracker tracker = new HareTracker();
    tracker.started(h, k0, -300); // h's round 0 computed on the K80 at 0: its sync ends at 100
    tracker.computed(h, k0, 0);
    tracker.started(blocker, v0, 0);
    RoundRanks ranks = new RoundRanks();
    ranks.put(h, 1);
    ranks.put(l, 2);
    PriorityDispatcher d = new PriorityDispatcher(ranks, tracker, 1000,
        Double.POSITIVE_INFINITY, penalty);
    d.refresh(h);
    d.refresh(l);
    if (affinity != null) {
      d.affinity().put("h", affinity, 0);
    }
    FakeCluster c = new FakeCluster(List.of(h, blocker, l), List.of(v0, k0), HOLD_TIMES);
    return d.assign(c, List.of(k0), 0, tracker, new FreeGpuIndex(), List.of());
  }

  @Test(timeout = 60_000)
  public void aHoldTakesATypeOutsideItsAffinityOnlyWhenItStillEndsFirstWithThePenalty() {
    List<Assignment> lOnK80 = List.of(new Assignment("k0", "l"));
    // 100 + 400 x 1.25 = 600 < 700: h holds the K80
    assertEquals(List.of(), holdThenDispatch(0.25, Set.of(V100)));
    // 100 + 400 x 2 = 900 > 700: h waits for the V100 and l runs on the K80
    assertEquals(lOnK80, holdThenDispatch(1, Set.of(V100)));
    assertEquals(lOnK80, holdThenDispatch(Double.POSITIVE_INFINITY, Set.of(V100)));
    // without affinity the K80 (500) is h's best
    assertEquals(List.of(), holdThenDispatch(1, null));
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
