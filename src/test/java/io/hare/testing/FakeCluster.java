package io.hare.testing;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.profile.TaskTimeModel;
import java.util.List;

/**
 * A cluster of {@link FakeJob}s on {@link Gpu}s for a policy's tests: its types, counts and free
 * counts come from the GPUs, in their order.
 */
public record FakeCluster(List<FakeJob> jobs, List<? extends GpuView> gpus, TaskTimeModel times)
    implements ClusterView {

  /** A GPU on a node of its own, busy or free, that no job ran on before. */
  public record Gpu(String id, GpuType type, boolean busy) implements GpuView {
    @Override
    public String lastJobId() {
      return null;
    }

    @Override
    public String node() {
      return "n-" + id;
    }
  }

  @Override
  public JobView job(String id) {
    return jobs.stream().filter(j -> j.id().equals(id)).findFirst().orElse(null);
  }

  @Override
  public List<GpuType> gpuTypes() {
    return gpus.stream().map(GpuView::type).distinct().toList();
  }

  @Override
  public int gpuCount(GpuType type) {
    return (int) gpus.stream().filter(g -> g.type().equals(type)).count();
  }

  @Override
  public int freeGpuCount(GpuType type) {
    return (int) gpus.stream().filter(g -> g.type().equals(type) && !g.busy()).count();
  }

  @Override
  public TaskTimeModel taskTimes() {
    return times;
  }
}
