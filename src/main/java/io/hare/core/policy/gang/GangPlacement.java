package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Where a gang job may go. A job runs on the types where it has task times ({@code times(type)
 * != null}); "fastest" means the shortest round on that type (compute plus sync: the k tasks of a
 * round run in parallel, then sync), ties in cluster type order.
 *
 * <p>A job needs k GPUs of one type. A job wider than every single type it can run on (but not
 * than all of them together) could never start under that rule, so it may span types instead:
 * it takes GPUs type by type, fastest first, and its round then lasts as long as the slowest
 * type it holds. A job wider than all GPUs it can run on never runs.
 */
final class GangPlacement {

  /**
   * Rounds a clairvoyant gang policy counts for a job that does not declare its size: long, so
   * that hiding the size does not jump the queue.
   */
  static final int UNKNOWN_ROUNDS = 1_000_000;

  private GangPlacement() {}

  /** Rounds left, the current one included, as a clairvoyant policy counts them. */
  static int remainingRounds(JobView job) {
    return Math.max(1, job.rounds().orElse(UNKNOWN_ROUNDS) - job.roundsDone());
  }

  /** Types the job can run on, fastest round first. */
  static List<GpuType> fastestFirst(JobView job, List<GpuType> types) {
    List<GpuType> out = new ArrayList<>();
    for (GpuType t : types) {
      if (job.times(t) != null) {
        out.add(t);
      }
    }
    out.sort(Comparator.comparingDouble(t -> job.times(t).roundMs())); // stable: cluster order
    return out;
  }

  /** The job is wider than every single type it can run on. */
  static boolean wide(JobView job, ClusterView cluster) {
    for (GpuType t : cluster.gpuTypes()) {
      if (job.times(t) != null && cluster.gpuCount(t) >= job.tasksPerRound()) {
        return false;
      }
    }
    return true;
  }

  /** The job fits the GPUs it can run on, all together. */
  static boolean runnable(JobView job, ClusterView cluster) {
    long n = 0;
    for (GpuType t : cluster.gpuTypes()) {
      if (job.times(t) != null) {
        n += cluster.gpuCount(t);
      }
    }
    return n >= job.tasksPerRound();
  }

  /**
   * Placement on the fastest type with k GPUs available, or, for a {@link #wide} job, a span of
   * the available GPUs fastest type first; null if the job does not fit now.
   *
   * @return GPUs to take per type
   */
  static Map<GpuType, Integer> fastest(JobView job, ClusterView cluster,
      ToIntFunction<GpuType> available) {
    int k = job.tasksPerRound();
    List<GpuType> types = fastestFirst(job, cluster.gpuTypes());
    if (!wide(job, cluster)) {
      for (GpuType t : types) {
        if (available.applyAsInt(t) >= k) {
          return Map.of(t, k);
        }
      }
      return null;
    }
    Map<GpuType, Integer> span = new LinkedHashMap<>();
    int left = k;
    for (GpuType t : types) {
      int n = Math.min(left, available.applyAsInt(t));
      if (n > 0) {
        span.put(t, n);
        left -= n;
      }
    }
    return left == 0 ? span : null;
  }

  /** Round time of a placement: its slowest type. */
  static double roundMs(JobView job, Map<GpuType, Integer> placement) {
    double ms = 0;
    for (GpuType t : placement.keySet()) {
      TaskTimes tt = job.times(t);
      ms = Math.max(ms, tt.roundMs());
    }
    return ms;
  }

  /**
   * The job's shortest possible round on this cluster (all GPUs free), or infinity if it cannot
   * run at all: what a clairvoyant gang policy takes as the job's speed.
   */
  static double bestRoundMs(JobView job, ClusterView cluster) {
    Map<GpuType, Integer> p = fastest(job, cluster, cluster::gpuCount);
    return p == null ? Double.POSITIVE_INFINITY : roundMs(job, p);
  }

  /**
   * The job's round time averaged over the cluster's GPUs it can run on: what a scheduler blind
   * to GPU types knows of a job's speed. Infinity if it cannot run at all.
   */
  static double averageRoundMs(JobView job, ClusterView cluster) {
    double sum = 0;
    int n = 0;
    for (GpuType t : cluster.gpuTypes()) {
      TaskTimes tt = job.times(t);
      if (tt != null) {
        sum += tt.roundMs() * cluster.gpuCount(t);
        n += cluster.gpuCount(t);
      }
    }
    return n == 0 ? Double.POSITIVE_INFINITY : sum / n;
  }
}
