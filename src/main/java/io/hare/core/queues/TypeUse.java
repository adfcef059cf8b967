package io.hare.core.queues;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * For {@link QueueGuarantees}, one offer's view of the queues guaranteed GPU types: per queue
 * and type, the GPU tasks it runs there (a busy GPU whose {@link GpuView#lastJobId} is the
 * queue's job) and its tasks waiting that can run there (a job's ready tasks count on every type
 * it has times for). Queues guaranteed a share of the fleet are not counted. Lives for one call.
 */
final class TypeUse {

  private final QueueShares queues;
  /** Job -> its queue, for the jobs of queues guaranteed GPU types. */
  private final Map<String, String> queueOfJob = new HashMap<>();
  /** Queue -> type -> {running, waiting}. */
  private final Map<String, Map<GpuType, int[]>> use = new HashMap<>();

  TypeUse(QueueShares queues, ClusterView view, Collection<? extends QueuedJob> jobs) {
    this.queues = queues;
    for (QueuedJob j : jobs) {
      String q = queues.queueOf(j.queue());
      if (!queues.queues().get(q).perType()) {
        continue;
      }
      queueOfJob.put(j.id(), q);
      Map<GpuType, int[]> m = use.computeIfAbsent(q, x -> new HashMap<>());
      if (j.readyTasks() > 0) {
        for (GpuType t : view.gpuTypes()) {
          if (j.times(t) != null) {
            m.computeIfAbsent(t, x -> new int[2])[1] += j.readyTasks();
          }
        }
      }
    }
    for (GpuView g : view.gpus()) {
      String q = g.busy() && g.lastJobId() != null ? queueOfJob.get(g.lastJobId()) : null;
      if (q != null) {
        use.get(q).computeIfAbsent(g.type(), x -> new int[2])[0]++;
      }
    }
  }

  /**
   * Per queue and type, the guaranteed GPUs of that type it does not hold while it has tasks
   * waiting that can run there; in the view's type order, together at most what its maximum
   * leaves ({@code running}: queue -> {GPU tasks running, ...}).
   */
  Map<String, Map<GpuType, Integer>> lacking(ClusterView view, int fleet,
      Map<String, int[]> running) {
    Map<String, Map<GpuType, Integer>> out = new HashMap<>();
    use.forEach((q, byType) -> {
      int room = queues.queues().get(q).maximumGpus(fleet) - running.get(q)[0];
      for (GpuType t : view.gpuTypes()) {
        int[] u = byType.get(t);
        if (u == null || u[1] == 0 || room <= 0) {
          continue;
        }
        int lack = Math.min(guaranteed(q, t, view) - u[0], room);
        if (lack > 0) {
          out.computeIfAbsent(q, x -> new HashMap<>()).put(t, lack);
          room -= lack;
        }
      }
    });
    return out;
  }

  /** Counts the tasks this offer started ({@code out}, on GPUs of {@code free}) as running. */
  void add(List<Assignment> out, List<? extends GpuView> free) {
    Map<String, GpuType> typeOf = new HashMap<>();
    for (GpuView g : free) {
      typeOf.put(g.id(), g.type());
    }
    for (Assignment a : out) {
      String q = queueOfJob.get(a.jobId());
      GpuType t = typeOf.get(a.gpuId());
      if (q != null && t != null) {
        use.get(q).computeIfAbsent(t, x -> new int[2])[0]++;
      }
    }
  }

  /** Whether {@code queue} holds fewer GPUs than guaranteed of a type its waiting tasks can use. */
  boolean below(String queue, ClusterView view) {
    for (Map.Entry<GpuType, int[]> e : use.getOrDefault(queue, Map.of()).entrySet()) {
      if (e.getValue()[1] > 0 && e.getValue()[0] < guaranteed(queue, e.getKey(), view)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code queue} holds more GPUs of some type than it is guaranteed of that type. */
  boolean above(String queue, ClusterView view) {
    for (Map.Entry<GpuType, int[]> e : use.getOrDefault(queue, Map.of()).entrySet()) {
      if (e.getValue()[0] > guaranteed(queue, e.getKey(), view)) {
        return true;
      }
    }
    return false;
  }

  private int guaranteed(String queue, GpuType t, ClusterView view) {
    return queues.queues().get(queue).guaranteedGpus(t, view.gpuTypes().contains(t)
        ? view.gpuCount(t) : 0);
  }
}
