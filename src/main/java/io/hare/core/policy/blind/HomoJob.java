package io.hare.core.policy.blind;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import java.util.Comparator;

/**
 * Sched_Homo's view of one job: its times on the cluster's average GPU (the only times a
 * heterogeneity-blind scheduler has), its Smith ratio and its admission rank.
 */
final class HomoJob {

  /** Smith's rule: larger weight per unit of work first; then arrival rank. */
  static final Comparator<HomoJob> SMITH = Comparator.<HomoJob>comparingDouble(j -> -j.smith)
      .thenComparingLong(j -> j.rank);

  /** Admitted jobs keep their admission order: no job-level preemption. */
  static final Comparator<HomoJob> ADMITTED = Comparator.comparingLong(j -> j.admitSeq);

  final String id;
  final long rank;
  final double weight;
  final int tasksPerRound;
  final int rounds; // -1 when the job did not declare it
  JobView view;
  double avgComputeMs; // over all GPUs of the cluster the job can run on, counted per GPU
  double avgSyncMs;
  int usableGpus; // GPUs of the cluster the job can run on; 0 = never runnable
  double smith; // weight / total work on the average GPU, fixed at arrival
  long admitSeq = -1; // -1 while pending
  boolean indexed; // in the admitted-ready index

  HomoJob(JobView view, long rank) {
    this.view = view;
    this.id = view.id();
    this.rank = rank;
    this.weight = view.weight();
    this.tasksPerRound = view.tasksPerRound();
    this.rounds = view.rounds().orElse(-1);
  }

  /** Whether the job declared its number of rounds (a clairvoyant policy needs it). */
  boolean sized() {
    return rounds > 0;
  }

  /** Averages the job's times over the cluster's GPUs, blind to which type is which. */
  void averageOver(ClusterView cluster) {
    double c = 0;
    double s = 0;
    int n = 0;
    for (GpuType t : cluster.gpuTypes()) {
      TaskTimes tt = view.times(t);
      int count = cluster.gpuCount(t);
      if (tt != null && count > 0) {
        c += count * tt.computeMs();
        s += count * tt.syncMs();
        n += count;
      }
    }
    usableGpus = n;
    avgComputeMs = n == 0 ? 0 : c / n;
    avgSyncMs = n == 0 ? 0 : s / n;
    smith = n == 0 || !sized() ? 0 : weight / remainingWorkMs(); // unsized jobs go last
  }

  long remainingTasks() {
    return (long) rounds * tasksPerRound - view.tasksDone();
  }

  /** Remaining work in GPU-ms on the average GPU; infinite if the job is not sized. */
  double remainingWorkMs() {
    return sized() ? remainingTasks() * avgComputeMs : Double.POSITIVE_INFINITY;
  }

  /** Shortest time to finish on the average GPU: the remaining rounds, each spread widest. */
  double remainingSpanMs() {
    if (!sized()) {
      return Double.POSITIVE_INFINITY;
    }
    int waves = (tasksPerRound + usableGpus - 1) / usableGpus;
    return (rounds - view.roundsDone()) * (waves * avgComputeMs + avgSyncMs);
  }
}
