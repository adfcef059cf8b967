package io.hare.core.policy.hlas;

import io.hare.core.policy.GpuView;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hands out the free GPUs of one type within one offer. A job gets first a GPU that last ran it
 * (its model is resident: no task switch), then one that no active job last ran (never used, or
 * its last job is gone), and only then a GPU another active job may come back to.
 *
 * <p>The GPUs are sorted into those groups lazily, at most {@link #SCAN} at a time, so handing
 * out a few GPUs of a large idle pool costs O(handed out + SCAN), not O(pool); a job's own GPU
 * beyond the scanned part may be missed, which costs at most a task switch.
 */
final class GpuPicker {

  private final ArrayDeque<GpuView> idle = new ArrayDeque<>();
  private final ArrayDeque<GpuView> others = new ArrayDeque<>();
  private final Map<String, ArrayDeque<GpuView>> byLastJob = new HashMap<>();
  private final Set<String> taken = new HashSet<>();
  private final List<GpuView> gpus;
  private final Set<String> activeJobs;
  private int scanned;

  /** How many more GPUs to sort when the sorted ones cannot serve a request. */
  static final int SCAN = 32;

  /**
   * @param gpus free GPUs of one type, in the host's order
   * @param activeJobs ids of the jobs still active
   */
  GpuPicker(List<GpuView> gpus, Set<String> activeJobs) {
    this.gpus = gpus;
    this.activeJobs = activeJobs;
  }

  /** Sorts the next SCAN GPUs; false if none was left. */
  private boolean scan() {
    int end = Math.min(gpus.size(), scanned + SCAN);
    if (scanned == end) {
      return false;
    }
    for (; scanned < end; scanned++) {
      GpuView g = gpus.get(scanned);
      String last = g.lastJobId();
      if (last == null || !activeJobs.contains(last)) {
        idle.add(g);
      } else {
        others.add(g);
        byLastJob.computeIfAbsent(last, k -> new ArrayDeque<>()).add(g);
      }
    }
    return true;
  }

  /**
   * @throws IllegalStateException if every GPU was already handed out (a caller bug)
   */
  GpuView take(String jobId) {
    if (scanned == 0) {
      scan();
    }
    do {
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
    } while (scan());
    throw new IllegalStateException("no free GPU left of this type");
  }
}
