package io.hare.core.policy.gang;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.Comparator;
import java.util.List;

/**
 * The shared skeleton of the non-preemptive gang baselines that queue jobs by arrival (Gavel's
 * FIFO, AlloX): a job waits in arrival order until {@link #start} grants it a lease of k GPUs,
 * and keeps them until it finishes ({@link GangLeases}); a job whose lease ended without it
 * finishing waits again. Only arrivals and ended leases change what the queue can start, so
 * {@link #start} runs only after one of those (or when it asked to be tried again).
 */
abstract class ArrivalOrderGang extends GangPolicy {

  record Key(long arrivalMs, String id) {}

  final GangQueue<Key> waiting = new GangQueue<>(
      Comparator.comparingLong(Key::arrivalMs).thenComparing(Key::id));
  private boolean dirty;

  /**
   * Grants leases to waiting jobs (removing them from {@link #waiting}).
   *
   * @return false to be called again at the next offer (GPUs it needs were not offered)
   */
  abstract boolean start(ClusterView cluster);

  /** The job is gone; forget what the subclass keeps of it. */
  void forget(String jobId) {}

  private void enqueue(JobView job) {
    waiting.add(job.id(), new Key(job.arrivalMs(), job.id()), job.tasksPerRound(), job.model());
    dirty = true;
  }

  @Override
  public void onJobArrived(JobView job, long nowMs) {
    enqueue(job);
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    leases.markDue(job.id());
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    leases.release(job.id());
    waiting.remove(job.id());
    forget(job.id());
    dirty = true;
  }

  @Override
  public final List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    for (String id : leases.begin(cluster, freeGpus)) {
      JobView job = cluster.job(id);
      if (job != null) {
        enqueue(job);
      }
    }
    if (dirty) {
      dirty = !start(cluster);
    }
    return leases.dispatch(cluster);
  }
}
