package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.gang.GangLeasesTest;
import io.hare.core.profile.ProfileTable;
import io.hare.testing.FakeJob;
import io.hare.core.profile.TaskTimeModel;
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
 * A host that offers only some free GPUs per call (one node per heartbeat, as YARN does): a gang
 * policy uses only offered GPUs and, when a job's k GPUs are not all offered, tries again at the
 * next offer instead of waiting for another arrival.
 */
@RunWith(Parameterized.class)
public class PartialOfferTest {

  @Parameters(name = "{0}")
  public static List<Object[]> policies() {
    return GangLeasesTest.policies();
  }

  private final String name;

  public PartialOfferTest(String name) {
    this.name = name;
  }

  @Test(timeout = 60_000)
  public void usesOnlyOfferedGpusAndRetriesAtTheNextOffer() throws Exception {
    FakeCluster c = new FakeCluster();
    SchedulingPolicy p = Policies.create(name, PolicyConfig.defaults());
    p.onJobArrived(c.job, 0);
    // node n0 heartbeats with one free GPU: not enough for k = 2
    assertEquals(List.of(), p.assign(c, List.of(c.gpus.get(0)), 0));
    // node n1 heartbeats with both its GPUs
    List<Assignment> a = p.assign(c, List.of(c.gpus.get(2), c.gpus.get(3)), 5);
    assertEquals(Set.of("g2", "g3"), a.stream().map(Assignment::gpuId).collect(Collectors.toSet()));
    assertTrue(a.stream().allMatch(x -> x.jobId().equals("a")));
  }

  /**
   * Four free v100 on two nodes and one job of k = 2 whose first round is ready; a test may
   * replace the GPUs (then it moves {@link #version} on).
   */
  static final class FakeCluster implements ClusterView {
    final TaskTimeModel times = ProfileTable.builder().put("cnn", "v100", 100, 0).build();
    final List<GpuView> gpus = new ArrayList<>();
    long version;
    final FakeJob job = new FakeJob("a", "cnn", 2, OptionalInt.of(3), times);

    FakeCluster() {
      job.ready = 2; // its first round
      for (int i = 0; i < 4; i++) {
        gpus.add(new FakeGpu("g" + i, "n" + (i / 2)));
      }
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
      return type.name().equals("v100") ? 4 : 0;
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return gpuCount(type);
    }

    @Override
    public TaskTimeModel taskTimes() {
      return times;
    }
  }

  record FakeGpu(String id, String node) implements GpuView {
    @Override
    public GpuType type() {
      return GpuType.of("v100");
    }

    @Override
    public boolean busy() {
      return false;
    }

    @Override
    public String lastJobId() {
      return null;
    }
  }
}
