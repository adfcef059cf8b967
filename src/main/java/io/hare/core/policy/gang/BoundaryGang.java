package io.hare.core.policy.gang;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The skeleton of the preemptive gang baselines (srtf and its variants, tiresias-las): jobs wait
 * in a {@link GangQueue} ordered by the policy's key; a leased job reaching a round boundary
 * may lose its GPUs to a better-ranked waiting one ({@link GangPass}). Decisions are taken only
 * when something changed: an arrival, a round boundary of a leased job, a finished job, a lease
 * that lost its GPUs, or what the policy adds ({@link #beforeDecide}).
 *
 * @param <K> the waiting queue's key
 */
abstract class BoundaryGang<K> extends GangPolicy {

  final GangQueue<K> waiting;
  /** Leased jobs at a round boundary since the last decision, in the order they got there. */
  final Set<String> boundary = new LinkedHashSet<>();
  boolean dirty;

  BoundaryGang(Comparator<K> order) {
    this.waiting = new GangQueue<>(order);
  }

  /** The job lost its lease or was preempted: it waits again (it may be gone: then nothing). */
  abstract void requeue(String jobId, ClusterView cluster, long nowMs);

  /** Brings the queue up to date before a decision may be taken; may set {@link #dirty}. */
  void beforeDecide(ClusterView cluster, long nowMs) {}

  /** Grants and preempts leases: the jobs in {@link #boundary} and {@link #waiting}. */
  abstract void decide(ClusterView cluster, long nowMs);

  /** The job is gone; forget what the subclass keeps of it. */
  void forget(String jobId) {}

  @Override
  public final void onRoundDone(JobView job, long nowMs) {
    if (leases.holds(job.id())) {
      boundary.add(job.id());
      dirty = true;
    }
  }

  @Override
  public final void onJobDone(JobView job, long nowMs) {
    leases.release(job.id());
    waiting.remove(job.id());
    boundary.remove(job.id());
    forget(job.id());
    dirty = true;
  }

  @Override
  public final List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    for (String id : leases.begin(cluster, freeGpus)) {
      requeue(id, cluster, nowMs);
      dirty = true;
    }
    beforeDecide(cluster, nowMs);
    if (dirty) {
      decide(cluster, nowMs);
      dirty = leases.retryNeeded();
    }
    return leases.dispatch(cluster);
  }
}
