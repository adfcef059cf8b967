package io.hare.cli;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Scripted policies that the CLI tests name by class (the way a user plugs in a policy), so a
 * comparison has more than one row before the real policies are merged in.
 */
public final class TestingPolicies {

  private TestingPolicies() {}

  /** Greedy: each free GPU, in offer order, to the oldest job with a ready task that fits. */
  public static final class Greedy implements SchedulingPolicy {
    public static final String NAME = "testing-greedy";

    public Greedy(PolicyConfig config) {}

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean clairvoyant() {
      return false;
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      List<Assignment> out = new ArrayList<>();
      Set<String> used = new HashSet<>();
      for (JobView job : cluster.jobs()) {
        int ready = job.readyTasks();
        for (GpuView g : freeGpus) {
          if (ready == 0) {
            break;
          }
          if (!used.contains(g.id()) && job.times(g.type()) != null) {
            used.add(g.id());
            out.add(new Assignment(g.id(), job.id()));
            ready--;
          }
        }
      }
      return out;
    }
  }

  /** Breaks the rules on its first offer: a bug the simulator must report (exit code 1). */
  public static final class Broken implements SchedulingPolicy {
    public static final String NAME = "testing-broken";

    public Broken(PolicyConfig config) {}

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean clairvoyant() {
      return false;
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      return List.of(new Assignment("no-such-gpu", cluster.jobs().get(0).id()));
    }
  }
}
