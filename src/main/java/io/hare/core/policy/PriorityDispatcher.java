package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Work-conserving, heterogeneity-aware dispatch by a priority order: list scheduling done at
 * run time instead of ahead of time.
 *
 * <p>Jobs with ready tasks are visited by rank (the relaxation order). Each ready task goes to the
 * free GPU type on which it would finish compute and sync first, unless a busy GPU of another type
 * is expected to free soon enough that the task would finish earlier there; then the task waits
 * for that GPU, which lower-ranked jobs may no longer count on. This is the earliest-finish rule
 * of {@link io.hare.core.plan.ListScheduler} with a look-ahead of one task per GPU; unlike a list
 * schedule laid out in advance, it never leaves a GPU idle waiting for a task whose round is not
 * ready while another ready task could use it, and it follows reality rather than estimates.
 */
final class PriorityDispatcher {

  private PriorityDispatcher() {}

  /**
   * @param rank lower runs first; jobs missing from it rank after all others, by arrival
   * @param busyFree expected free times of busy GPUs per type, ascending
   */
  static List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs, RoundRanks rank, Map<GpuType, long[]> busyFree) {
    List<Assignment> out = new ArrayList<>();
    Map<GpuType, List<GpuView>> free = new LinkedHashMap<>();
    for (GpuView g : freeGpus) {
      free.computeIfAbsent(g.type(), t -> new ArrayList<>()).add(g);
    }
    int freeLeft = freeGpus.size();
    Map<GpuType, Integer> claimed = new HashMap<>();
    List<JobView> ready = new ArrayList<>();
    for (JobView j : cluster.jobs()) {
      if (j.readyTasks() > 0) {
        ready.add(j);
      }
    }
    ready.sort(Comparator.comparingInt(rank::rank)); // stable: ties keep arrival order
    for (JobView job : ready) {
      int tasks = job.readyTasks();
      while (tasks > 0 && freeLeft > 0) {
        GpuType bestFree = null;
        double freeFinish = Double.POSITIVE_INFINITY;
        GpuType bestWait = null;
        double waitFinish = Double.POSITIVE_INFINITY;
        for (GpuType t : cluster.gpuTypes()) {
          TaskTimes tt = job.times(t);
          if (tt == null) {
            continue;
          }
          List<GpuView> f = free.get(t);
          if (f != null && !f.isEmpty() && nowMs + tt.roundMs() < freeFinish) {
            freeFinish = nowMs + tt.roundMs();
            bestFree = t;
          }
          long[] busy = busyFree.get(t);
          int c = claimed.getOrDefault(t, 0);
          if (busy != null && c < busy.length && busy[c] + tt.roundMs() < waitFinish) {
            waitFinish = busy[c] + tt.roundMs();
            bestWait = t;
          }
        }
        if (bestFree != null && freeFinish <= waitFinish) {
          List<GpuView> f = free.get(bestFree);
          out.add(new Assignment(f.remove(f.size() - 1).id(), job.id()));
          freeLeft--;
        } else if (bestWait != null) {
          claimed.merge(bestWait, 1, Integer::sum); // this task waits for that GPU
        } else {
          break;
        }
        tasks--;
      }
      if (freeLeft == 0) {
        break;
      }
    }
    return out;
  }
}
