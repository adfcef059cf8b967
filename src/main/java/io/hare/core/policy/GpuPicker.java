package io.hare.core.policy;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hands out the free GPUs of one type within one offer. A job gets first a GPU that last ran it
 * (its model is resident: no task switch), then one that no active job last ran (never used, or
 * its last job is gone), and only then a GPU another active job may come back to. O(GPUs) to
 * build, O(1) amortised per GPU handed out.
 */
final class GpuPicker {

  private final ArrayDeque<GpuView> idle = new ArrayDeque<>();
  private final ArrayDeque<GpuView> others = new ArrayDeque<>();
  private final Map<String, ArrayDeque<GpuView>> byLastJob = new HashMap<>();
  private final Set<String> taken = new HashSet<>();

  /**
   * @param gpus free GPUs of one type, in the host's order
   * @param activeJobs ids of the jobs still active
   */
  GpuPicker(List<GpuView> gpus, Set<String> activeJobs) {
    for (GpuView g : gpus) {
      String last = g.lastJobId();
      if (last == null || !activeJobs.contains(last)) {
        idle.add(g);
      } else {
        others.add(g);
        byLastJob.computeIfAbsent(last, k -> new ArrayDeque<>()).add(g);
      }
    }
  }

  /**
   * @throws IllegalStateException if every GPU was already handed out (a caller bug)
   */
  GpuView take(String jobId) {
    ArrayDeque<GpuView> own = byLastJob.get(jobId);
    while (own != null && !own.isEmpty()) {
      GpuView g = own.poll();
      if (taken.add(g.id())) {
        return g;
      }
    }
    for (ArrayDeque<GpuView> q : List.of(idle, others)) {
      while (!q.isEmpty()) {
        GpuView g = q.poll();
        if (taken.add(g.id())) {
          return g;
        }
      }
    }
    throw new IllegalStateException("no free GPU left of this type");
  }
}
