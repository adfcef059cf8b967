package io.hare.core.policy.blind;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a stock YARN FIFO queue does with per-round GPU asks: applications in arrival order, each
 * free GPU to the oldest application with an outstanding ask, blind to GPU types. Tasks of a round
 * are asked for individually (the Hare AM never waits for k containers at once), so a job's
 * round can spread over GPUs and time as they free up.
 *
 * <p>Which free GPU a job gets is arbitrary in YARN (whichever node heartbeats first); here the
 * offered GPUs are visited in a seeded random order, so listing a fast type first in the cluster
 * does not make this baseline accidentally heterogeneity-aware.
 */
public final class YarnFifoPolicy implements SchedulingPolicy {

  public static final String NAME = "yarn-fifo";

  private final Random random;

  public YarnFifoPolicy(PolicyConfig config) {
    this.random = new Random(config.seed());
  }

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
    if (freeGpus.isEmpty()) {
      return out;
    }
    // Sparse Fisher-Yates: draw GPUs in random order without copying the offer, so a call costs
    // O(assignments), not O(free GPUs), on a large idle cluster.
    Map<Integer, Integer> swapped = new HashMap<>();
    int drawn = 0;
    int n = freeGpus.size();
    // GPUs drawn for a job that cannot run on their type: offered first to the next jobs.
    List<GpuView> carried = new ArrayList<>();
    for (JobView job : cluster.jobs()) {
      int ready = job.readyTasks();
      List<GpuView> skipped = new ArrayList<>();
      for (var it = carried.iterator(); ready > 0 && it.hasNext(); ) {
        GpuView gpu = it.next();
        if (job.times(gpu.type()) != null) {
          it.remove();
          out.add(new Assignment(gpu.id(), job.id()));
          ready--;
        }
      }
      while (ready > 0 && drawn < n) {
        int pick = drawn + random.nextInt(n - drawn);
        int at = swapped.getOrDefault(pick, pick);
        swapped.put(pick, swapped.getOrDefault(drawn, drawn));
        drawn++;
        GpuView gpu = freeGpus.get(at);
        if (job.times(gpu.type()) == null) {
          skipped.add(gpu); // YARN would not match this job here either
          continue;
        }
        out.add(new Assignment(gpu.id(), job.id()));
        ready--;
      }
      carried.addAll(skipped);
      if (drawn >= n && carried.isEmpty()) {
        break;
      }
    }
    return out;
  }
}
