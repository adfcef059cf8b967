package io.hare.sim;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted policy for simulator tests: each call of {@code assign} is answered by a script, and
 * the instants of the calls are kept. Two ready-made scripts: fixed GPU-to-job rules and a
 * first-come first-served greedy; or any lambda, to break the rules on purpose.
 */
final class TestingPolicy implements SchedulingPolicy {

  /** Answers one offer. */
  @FunctionalInterface
  interface Script {
    List<Assignment> answer(ClusterView cluster, List<? extends GpuView> free, long nowMs);
  }

  private final Script script;
  final List<Long> calls = new ArrayList<>();

  TestingPolicy(Script script) {
    this.script = script;
  }

  /** "Always give GPU g to job j": each offered GPU to its job while the job has ready tasks. */
  static TestingPolicy rules(Map<String, String> jobByGpu) {
    return new TestingPolicy((cluster, free, now) -> {
      List<Assignment> out = new ArrayList<>();
      Map<String, Integer> given = new HashMap<>();
      for (GpuView g : free) {
        String jobId = jobByGpu.get(g.id());
        JobView j = jobId == null ? null : cluster.job(jobId);
        if (j != null && j.readyTasks() > given.getOrDefault(jobId, 0)) {
          given.merge(jobId, 1, Integer::sum);
          out.add(new Assignment(g.id(), jobId));
        }
      }
      return out;
    });
  }

  /** Each offered GPU, in offer order, to the oldest job with a ready task that runs there. */
  static TestingPolicy firstComeFirstServed() {
    return new TestingPolicy((cluster, free, now) -> {
      List<Assignment> out = new ArrayList<>();
      Map<String, Integer> given = new HashMap<>();
      for (GpuView g : free) {
        for (JobView j : cluster.jobs()) {
          if (j.readyTasks() > given.getOrDefault(j.id(), 0) && j.times(g.type()) != null) {
            given.merge(j.id(), 1, Integer::sum);
            out.add(new Assignment(g.id(), j.id()));
            break;
          }
        }
      }
      return out;
    });
  }

  @Override
  public String name() {
    return "testing";
  }

  @Override
  public boolean clairvoyant() {
    return true;
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    calls.add(nowMs);
    return script.answer(cluster, freeGpus, nowMs);
  }
}
