package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.FreeGpuIndex;
import io.hare.core.policy.GpuView;
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
import java.util.OptionalLong;
import java.util.Set;
import org.junit.Test;

/**
 * Type affinity that expires: a job left out of the relaxation keeps its types only for a while,
 * then takes a free GPU of a type its stale affinity banned.
 */
public class TypeAffinityTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");
  private static final TaskTimeModel TIMES = ProfileTable.builder()
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 10_000, 0).put("tiny", "v100", 10, 0).build();

  @Test(timeout = 60_000)
  public void typesLastUntilTheirExpiryOnceLeftOutAndAFreshRelaxationRenewsThem() {
    TypeAffinity a = new TypeAffinity();
    a.put("j", Set.of(V100), 1_000);
    assertEquals(Set.of(V100), a.allowed("j", 1_000_000)); // in the latest LP: no end
    assertEquals(OptionalLong.empty(), a.nextExpiryMs());
    a.expireAfter("j", 500); // left out: ends 500 ms after the LP that set it
    assertEquals(Set.of(V100), a.allowed("j", 1_499));
    assertNull(a.allowed("j", 1_500));
    assertEquals(OptionalLong.of(1_500), a.nextExpiryMs());
    a.expireAfter("j", 900); // a later re-plan never lengthens it
    assertEquals(OptionalLong.of(1_500), a.nextExpiryMs());
    a.put("j", Set.of(V100, K80), 2_000); // back in an LP: fresh types, no end
    assertEquals(OptionalLong.empty(), a.nextExpiryMs());
    assertEquals(Set.of(V100, K80), a.allowed("j", 10_000));
    a.expireAfter("j", 0);
    a.purge(2_000);
    assertNull(a.allowed("j", 2_000));
    assertEquals(OptionalLong.empty(), a.nextExpiryMs());
  }

  @Test(timeout = 60_000)
  public void aJobWhoseStaleAffinityExpiredTakesAFreeGpuOfATypeItBanned() {
    FakeJob job = new FakeJob("a", "cnn", 1, OptionalInt.of(3), TIMES);
    job.ready = 1;
    FakeCluster c = new FakeCluster(List.of(job),
        List.of(new Gpu("v0", V100, true), new Gpu("k0", K80, false)), TIMES);
    RoundRanks ranks = new RoundRanks();
    ranks.put(job, 1);
    HareTracker tracker = new HareTracker();
    PriorityDispatcher d = new PriorityDispatcher(ranks, tracker, -1);
    d.refresh(job);
    // the relaxation at 0 put a on the V100 (100x faster); a later one left it out: its types
    // end 10 task times (10 x 100 ms) after the relaxation
    d.affinity().put("a", Set.of(V100), 0);
    d.affinity().expireAfter("a", 1_000);
    List<GpuView> free = List.of(c.gpus().get(1));
    FreeGpuIndex index = new FreeGpuIndex();
    assertEquals(List.of(), d.assign(c, free, 999, tracker, index, List.of()));
    assertEquals(List.of(new Assignment("k0", "a")),
        d.assign(c, free, 1_000, tracker, index, List.of()));
  }

  @Test(timeout = 60_000)
  public void hareLetsAJobLeftOutOfTheLpUseEveryTypeAfterItsStaleTasks() {
    FakeJob a = new FakeJob("a", "cnn", 1, OptionalInt.of(1), TIMES);
    a.ready = 1;
    FakeJob b = new FakeJob("b", "tiny", 1, OptionalInt.of(1), TIMES); // runs on a V100 only
    b.ready = 1;
    List<GpuView> gpus = List.of(new Gpu("v0", V100, true), new Gpu("k0", K80, false));
    List<GpuView> free = List.of(gpus.get(1));
    // exact plans off: a cluster this small would follow one, and the LP's affinity is what
    // decides in clusters past exact.max-gpus
    HarePolicy p = new HarePolicy(new PolicyConfig(Map.of(HareKeys.LP_MAX_JOBS, "1",
        HareKeys.AFFINITY_STALE_TASKS, "10", HareKeys.EXACT_MAX_TASKS, "0"), 1));
    assertEquals(List.of(), leftOut(p, a, b, gpus, 999));
    assertEquals(OptionalLong.of(1_000), p.wakeUpAtMs());
    assertEquals(List.of(new Assignment("k0", "a")),
        p.assign(new FakeCluster(List.of(a, b), gpus, TIMES), free, 1_000));
    // by default the ban lasts until a is in an LP again
    HarePolicy keeps = new HarePolicy(new PolicyConfig(Map.of(HareKeys.LP_MAX_JOBS,
        "1", HareKeys.EXACT_MAX_TASKS, "0"), 1));
    assertEquals(List.of(), leftOut(keeps, a, b, gpus, 999));
    assertEquals(List.of(),
        keeps.assign(new FakeCluster(List.of(a, b), gpus, TIMES), free, 1_000_000));
  }

  /**
   * a alone is matched to the V100 (100x faster) at 0, and while the V100 is busy may not take
   * the K80; b, ranked first, arrives at 100 and takes the LP's one place; then a dispatch at
   * {@code atMs}.
   */
  private static List<Assignment> leftOut(HarePolicy p, FakeJob a, FakeJob b,
      List<GpuView> gpus, long atMs) {
    List<GpuView> free = List.of(gpus.get(1));
    p.onJobArrived(a, 0);
    FakeCluster alone = new FakeCluster(List.of(a), gpus, TIMES);
    p.replan(alone, 0);
    assertEquals(List.of(), p.assign(alone, free, 0));
    p.onJobArrived(b, 100);
    FakeCluster both = new FakeCluster(List.of(a, b), gpus, TIMES);
    p.replan(both, 100);
    return p.assign(both, free, atMs);
  }

  @Test(timeout = 60_000)
  public void aBadStaleTasksValueIsNamed() {
    try {
      Policies.create(HarePolicy.NAME, new PolicyConfig(
          Map.of(HareKeys.AFFINITY_STALE_TASKS, "-1"), 1));
      fail("a negative value accepted");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(HareKeys.AFFINITY_STALE_TASKS));
      assertTrue(e.getMessage(), e.getMessage().contains("-1"));
    }
  }
}
