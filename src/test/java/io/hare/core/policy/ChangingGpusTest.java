package io.hare.core.policy;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeJob;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * GPUs that leave and join between two offers without a task event (a node lost or silent, a
 * node added): a policy that indexes the free GPUs answers from the GPUs of the cluster as it is
 * now, even when the offer has as many GPUs as the ones it indexed before.
 */
@RunWith(Parameterized.class)
public class ChangingGpusTest {

  @Parameters(name = "{0}")
  public static List<Object[]> policies() {
    return List.of(new Object[] {"hare"}, new Object[] {"hlas"});
  }

  private final String name;

  public ChangingGpusTest(String name) {
    this.name = name;
  }

  @Test(timeout = 30_000)
  public void answersWithTheGpusOfferedAfterTheClusterChanged() throws Exception {
    Cluster c = new Cluster();
    SchedulingPolicy p = Policies.create(name, PolicyConfig.defaults());
    p.onJobArrived(c.job, 0);
    c.set(List.of(gpu("g0", "n0"), gpu("g1", "n0")));
    assertFalse(assign(p, c, 0).isEmpty()); // indexes n0's GPUs; nothing starts
    c.set(List.of(gpu("g2", "n1"), gpu("g3", "n1"))); // n0 left, n1 joined: as many GPUs
    Set<String> given = assign(p, c, 1_000);
    assertFalse(given.isEmpty());
    assertTrue(given + " should be of the offer g2, g3", Set.of("g2", "g3").containsAll(given));
  }

  private static Set<String> assign(SchedulingPolicy p, Cluster c, long nowMs) {
    if (p.replanDue(nowMs)) {
      p.replan(c, nowMs);
    }
    return p.assign(c, c.gpus, nowMs).stream().map(Assignment::gpuId)
        .collect(Collectors.toSet());
  }

  private static GpuView gpu(String id, String node) {
    return new GpuView() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public GpuType type() {
        return GpuType.of("v100");
      }

      @Override
      public String node() {
        return node;
      }

      @Override
      public boolean busy() {
        return false;
      }

      @Override
      public String lastJobId() {
        return null;
      }
    };
  }

  /** Free v100 GPUs that the test replaces, and one job of k = 2 whose first round is ready. */
  private static final class Cluster implements ClusterView {
    final TaskTimeModel times = ProfileTable.builder().put("cnn", "v100", 100, 0).build();
    final FakeJob job = new FakeJob("a", "cnn", 2, OptionalInt.of(3), times);
    List<GpuView> gpus = new ArrayList<>();
    long version;

    Cluster() {
      job.ready = 2;
    }

    void set(List<GpuView> now) {
      gpus = now;
      version++;
    }

    @Override
    public List<? extends JobView> jobs() {
      return List.of(job);
    }

    @Override
    public JobView job(String id) {
      return id.equals(job.id()) ? job : null;
    }

    @Override
    public List<? extends GpuView> gpus() {
      return gpus;
    }

    @Override
    public long gpusVersion() {
      return version;
    }

    @Override
    public List<GpuType> gpuTypes() {
      return List.of(GpuType.of("v100"));
    }

    @Override
    public int gpuCount(GpuType type) {
      return gpus.size();
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return gpus.size();
    }

    @Override
    public TaskTimeModel taskTimes() {
      return times;
    }
  }
}
