package io.hare.core.policy;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.core.policy.hlas.HlasPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeJob;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * A job that declares the most rounds and tasks per round a tag allows (10^8 x 10^5) is planned
 * in bounded memory and time next to a small one, and both get a GPU. Before the orders ranked
 * at most {@code PlanJob.MAX_ORDERED_GROUPS} rounds of a job, one such job ran the planner out of
 * memory (a group reference per round) at every re-plan, in the ResourceManager's re-plan thread.
 */
@RunWith(Parameterized.class)
public class HugeJobTest {

  @Parameters(name = "{0}")
  public static Collection<Object[]> policies() {
    // hare-paper's GPUs follow the list schedule, which keeps the second GPU for the small
    // job's next round (the paper's executors idle as planned)
    return Arrays.asList(new Object[][] {{HarePolicy.NAME, Set.of("huge", "small")},
        {HarePolicy.PAPER_NAME, Set.of("small")}, {HlasPolicy.NAME, Set.of("huge", "small")}});
  }

  private final String policy;
  private final Set<String> expected;

  public HugeJobTest(String policy, Set<String> expected) {
    this.policy = policy;
    this.expected = expected;
  }

  @Test(timeout = 60_000)
  public void theLargestDeclaredJobIsPlannedAndOthersStillRun() throws Exception {
    TaskTimeModel times = ProfileTable.builder().put("cnn", "v100", 60_000, 0).build();
    // the largest hare.tasks-per-round and hare.rounds tags allow (io.hare.yarn.JobTags)
    FakeJob huge = new FakeJob("huge", "cnn", 100_000, OptionalInt.of(100_000_000), times);
    huge.ready = 1; // one ask outstanding, as an AM asks
    FakeJob small = new FakeJob("small", "cnn", 1, OptionalInt.of(2), times);
    small.ready = 1;
    List<GpuView> gpus = List.of(new Gpu("g0"), new Gpu("g1"));
    ClusterView c = new Cluster(List.of(huge, small), gpus, times);
    SchedulingPolicy p = Policies.create(policy, PolicyConfig.defaults());
    p.onJobArrived(huge, 0);
    p.onJobArrived(small, 0);
    if (p.replanDue(0)) {
      p.replan(c, 0);
    }
    Set<String> placed = p.assign(c, gpus, 0).stream().map(Assignment::jobId)
        .collect(Collectors.toSet());
    assertEquals(expected, placed);
  }

  private record Gpu(String id) implements GpuView {
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

    @Override
    public String node() {
      return "n0";
    }
  }

  private record Cluster(List<FakeJob> jobList, List<GpuView> gpuList, TaskTimeModel times)
      implements ClusterView {
    @Override
    public List<? extends JobView> jobs() {
      return jobList;
    }

    @Override
    public JobView job(String id) {
      return jobList.stream().filter(j -> j.id().equals(id)).findFirst().orElse(null);
    }

    @Override
    public List<? extends GpuView> gpus() {
      return gpuList;
    }

    @Override
    public List<GpuType> gpuTypes() {
      return List.of(GpuType.of("v100"));
    }

    @Override
    public int gpuCount(GpuType type) {
      return gpuList.size();
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return gpuList.size();
    }

    @Override
    public TaskTimeModel taskTimes() {
      return times;
    }
  }
}
