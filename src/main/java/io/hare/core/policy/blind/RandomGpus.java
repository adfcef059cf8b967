package io.hare.core.policy.blind;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The free GPUs of one offer drawn in a seeded random order, for type-blind policies: which GPU
 * a task gets must not depend on how the cluster lists its types. A sparse Fisher-Yates shuffle
 * draws without copying the offer, so an offer costs O(GPUs drawn), not O(GPUs free). A GPU
 * drawn for a job that cannot run on its type is kept aside and offered first to later jobs.
 */
final class RandomGpus {

  private final List<? extends GpuView> free;
  private final Random random;
  private final Map<Integer, Integer> swapped = new HashMap<>();
  private final List<GpuView> carried = new ArrayList<>();
  private int drawn;

  RandomGpus(List<? extends GpuView> free, Random random) {
    this.free = free;
    this.random = random;
  }

  /** True when every free GPU is drawn and none is left aside. */
  boolean exhausted() {
    return drawn >= free.size() && carried.isEmpty();
  }

  /** Gives up to {@code max} GPUs the job can run on to it; returns how many. */
  int take(JobView job, int max, List<Assignment> out) {
    int given = 0;
    for (Iterator<GpuView> it = carried.iterator(); given < max && it.hasNext(); ) {
      GpuView g = it.next();
      if (job.times(g.type()) != null) {
        it.remove();
        out.add(new Assignment(g.id(), job.id()));
        given++;
      }
    }
    List<GpuView> skipped = new ArrayList<>();
    int n = free.size();
    while (given < max && drawn < n) {
      int pick = drawn + random.nextInt(n - drawn);
      int at = swapped.getOrDefault(pick, pick);
      swapped.put(pick, swapped.getOrDefault(drawn, drawn));
      drawn++;
      GpuView g = free.get(at);
      if (job.times(g.type()) == null) {
        skipped.add(g);
      } else {
        out.add(new Assignment(g.id(), job.id()));
        given++;
      }
    }
    carried.addAll(skipped);
    return given;
  }
}
