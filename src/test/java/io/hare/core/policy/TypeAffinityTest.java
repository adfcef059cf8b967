package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
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
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 700, 0).build();

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
    Cluster c = new Cluster(job, List.of(new Gpu("v0", V100, true), new Gpu("k0", K80, false)));
    RoundRanks ranks = new RoundRanks();
    ranks.put(job, 1);
    HareTracker tracker = new HareTracker();
    PriorityDispatcher d = new PriorityDispatcher(ranks, tracker, -1);
    d.refresh(job);
    // the relaxation at 0 put a on the V100 (7x faster); a later one left it out: its types
    // end 10 task times (10 x 100 ms) after the relaxation
    d.affinity().put("a", Set.of(V100), 0);
    d.affinity().expireAfter("a", 1_000);
    List<GpuView> free = List.of(c.gpus.get(1));
    FreeGpuIndex index = new FreeGpuIndex();
    assertEquals(List.of(), d.assign(c, free, 999, tracker, index, List.of()));
    assertEquals(List.of(new Assignment("k0", "a")),
        d.assign(c, free, 1_000, tracker, index, List.of()));
  }

  @Test(timeout = 60_000)
  public void aBadStaleTasksValueIsNamed() {
    try {
      Policies.create(HarePolicy.NAME, new PolicyConfig(
          Map.of(SchedulerKeys.HARE_AFFINITY_STALE_TASKS, "-1"), 1));
      fail("a negative value accepted");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(SchedulerKeys.HARE_AFFINITY_STALE_TASKS));
      assertTrue(e.getMessage(), e.getMessage().contains("-1"));
    }
  }

  private record Gpu(String id, GpuType type, boolean busy) implements GpuView {
    @Override
    public String lastJobId() {
      return null;
    }

    @Override
    public String node() {
      return "n-" + id;
    }
  }

  private record Cluster(FakeJob only, List<GpuView> gpus) implements ClusterView {
    @Override
    public List<? extends JobView> jobs() {
      return List.of(only);
    }

    @Override
    public JobView job(String id) {
      return only.id().equals(id) ? only : null;
    }

    @Override
    public List<GpuType> gpuTypes() {
      return List.of(V100, K80);
    }

    @Override
    public int gpuCount(GpuType type) {
      return 1;
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return type.equals(K80) ? 1 : 0;
    }

    @Override
    public TaskTimeModel taskTimes() {
      return TIMES;
    }
  }
}
