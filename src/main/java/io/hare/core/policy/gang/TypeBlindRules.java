package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Type-blind gang placement, as Tiresias places jobs: any k free GPUs of the types the job can
 * run on, possibly mixing types; a job keeps what it holds.
 */
final class TypeBlindRules implements GangPass.Rules {

  private final ClusterView cluster;

  TypeBlindRules(ClusterView cluster) {
    this.cluster = cluster;
  }

  @Override
  public boolean keep(JobView job, ToIntFunction<GpuType> available) {
    return true;
  }

  @Override
  public GangPass.Placement place(JobView job, ToIntFunction<GpuType> available) {
    List<GpuType> types = new ArrayList<>();
    int n = 0;
    for (GpuType t : cluster.gpuTypes()) {
      if (job.times(t) != null) {
        types.add(t);
        n += available.applyAsInt(t);
      }
    }
    return n >= job.tasksPerRound() ? GangPass.Placement.anyOf(types, job.tasksPerRound()) : null;
  }
}
