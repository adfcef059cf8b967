package io.hare.core.queues;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A policy of the gate's tests: serves the ready jobs in the order given (a job not in the view
 * is skipped), each task on the first free GPU listed that it can run on, except the jobs it
 * {@code declines} (what a hold or a wait for a faster type looks like from outside).
 */
record TestPolicy(List<String> order, Set<String> declines) implements SchedulingPolicy {

  TestPolicy(String... order) {
    this(List.of(order), Set.of());
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public boolean clairvoyant() {
    return false;
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    List<Assignment> out = new ArrayList<>();
    List<GpuView> left = new ArrayList<>(freeGpus);
    for (String id : order) {
      JobView j = cluster.job(id);
      for (int n = j == null ? 0 : j.readyTasks(); n > 0 && !declines.contains(id); n--) {
        GpuView g = left.stream().filter(x -> j.times(x.type()) != null).findFirst()
            .orElse(null);
        if (g == null) {
          break;
        }
        left.remove(g);
        out.add(new Assignment(g.id(), id));
      }
    }
    return out;
  }
}
