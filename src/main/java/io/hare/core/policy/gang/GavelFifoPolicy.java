package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gavel_FIFO, the Hare paper's first baseline: jobs in arrival order, each gets all k GPUs at
 * once on the fastest type (for that job) that has k free, otherwise it waits.
 *
 * <p>Source: Gavel's heterogeneity-aware FIFO ({@code stanford-futuredata/gavel,
 * scheduler/policies/fifo.py}, {@code FIFOPolicyWithPerf}, i.e. {@code FIFOPolicy(mode='perf')}).
 * Its allocation loop takes the queue in job-id (arrival) order and gives the head the worker
 * type with the highest throughput among the types with at least {@code scale_factor} free
 * workers; when no type has that many, it {@code break}s: strict head-of-line blocking, no later
 * job starts while the head waits. We do the same: the head blocks the queue, also when the
 * free GPUs are of a type it cannot run on (every job runs on every type in Gavel's data).
 *
 * <p>Adaptations to our model: "fastest" is the shortest round (compute plus sync) on the type;
 * a job holds its GPUs through a {@link GangLeases lease} until it finishes and is never
 * preempted (the Hare paper's reading; Gavel's perf mode recomputes the whole allocation each
 * scheduling round and could move a running job to another type, which a non-preemptive gang
 * does not). Two rules keep the queue from stalling forever where Gavel would: a job wider than
 * every single type it can run on spans types ({@link GangPlacement}), and a job wider than all
 * GPUs it can run on never runs and does not block the jobs behind it (logged once). Weights are
 * ignored, as in Gavel's FIFO.
 */
public final class GavelFifoPolicy extends ArrivalOrderGang {

  public static final String NAME = "gavel-fifo";

  private static final Logger LOG = LoggerFactory.getLogger(GavelFifoPolicy.class);

  private final Set<String> neverRuns = new HashSet<>();

  public GavelFifoPolicy(PolicyConfig config) {
    // no settings: Gavel's FIFO has none that apply here
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
  void forget(String jobId) {
    neverRuns.remove(jobId);
  }

  @Override
  boolean start(ClusterView cluster) {
    startInOrder(cluster);
    return !leases.retryNeeded();
  }

  private void startInOrder(ClusterView cluster) {
    List<String> started = new ArrayList<>();
    for (GangQueue<Key>.Scan it = waiting.scan(); it.hasNext(); ) {
      JobView job = cluster.job(it.next());
      if (job == null) {
        continue;
      }
      if (!GangPlacement.runnable(job, cluster)) {
        if (neverRuns.add(job.id())) {
          LOG.warn("{}: job {} needs {} GPUs, more than the cluster has of the types it can "
              + "use; it will not run", NAME, job.id(), job.tasksPerRound());
        }
        it.dropBucketOfLast(); // same width and model: none of them can run
        continue;
      }
      Map<GpuType, Integer> p = GangPlacement.fastest(job, cluster, leases::unleased);
      if (p == null || !leases.grant(job.id(), p)) {
        break; // head-of-line blocking, as Gavel's FIFO
      }
      started.add(job.id());
    }
    started.forEach(waiting::remove);
  }
}
