package io.hare.core.plan;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable snapshot to plan from: the GPU types, when each GPU is next free, and what is left
 * of each job. Built from a live {@code ClusterView} by the policy (online) or from a whole
 * workload (offline, for the lower bound).
 *
 * @param nowMs planning time; nothing new starts before it
 * @param types GPU types; jobs and GPUs refer to them by index
 * @param gpuType type index of each GPU
 * @param gpuFreeMs when each GPU finishes its running task (&lt;= nowMs if idle)
 * @param gpuIds GPU ids, for plans that name GPUs
 */
public record PlanningProblem(long nowMs, List<GpuType> types, int[] gpuType, long[] gpuFreeMs,
    String[] gpuIds, List<PlanJob> jobs) {

  public PlanningProblem {
    types = List.copyOf(types);
    jobs = List.copyOf(jobs);
    if (gpuType.length != gpuFreeMs.length || gpuType.length != gpuIds.length) {
      throw new IllegalArgumentException("GPU arrays differ in length");
    }
  }

  public int gpuCount() {
    return gpuType.length;
  }

  /** Number of GPUs of each type. */
  public int[] countsByType() {
    int[] c = new int[types.size()];
    for (int t : gpuType) {
      c[t]++;
    }
    return c;
  }

  /** Types that have at least one GPU. */
  public boolean[] presentTypes() {
    int[] c = countsByType();
    boolean[] p = new boolean[c.length];
    for (int i = 0; i < c.length; i++) {
      p[i] = c[i] > 0;
    }
    return p;
  }

  /**
   * The same problem with only the first {@code max} jobs of {@code jobOrder} (job indices, each
   * once, as {@link SmithOrder#jobOrder} gives them), in that order; this problem itself if
   * {@code max} is 0 or there are no more jobs than that.
   */
  public PlanningProblem firstJobs(int[] jobOrder, int max) {
    if (max == 0 || jobs.size() <= max) {
      return this;
    }
    List<PlanJob> head = new ArrayList<>(max);
    for (int i = 0; i < jobOrder.length && head.size() < max; i++) {
      head.add(jobs.get(jobOrder[i]));
    }
    return new PlanningProblem(nowMs, types, gpuType, gpuFreeMs, gpuIds, head);
  }
}
