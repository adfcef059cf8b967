package io.hare.core.policy.hlas;

import io.hare.core.TaskTimes;
import io.hare.core.policy.JobView;
import java.util.Comparator;

/**
 * HLAS's bookkeeping for one active job: attained service, its priority key and its compute
 * times per GPU type. Mutable; the owning policy takes it out of its index before changing the
 * key and puts it back after.
 */
final class HlasJob implements TypeMatcher.Candidate {

  /** Lower key first; ties by arrival rank, which is unique. */
  static final Comparator<HlasJob> PRIORITY =
      Comparator.<HlasJob>comparingDouble(j -> j.key).thenComparingLong(j -> j.rank);

  final String id;
  final long rank; // arrival rank
  final long arrivalMs;
  final double weight;
  final int tasksPerRound;
  JobView view;

  private double[] computeMs = new double[0]; // per type index; NaN = cannot run there
  private int typesVersion = -1; // version of the cluster's types computeMs was read for
  private double bestComputeMs = Double.NaN; // one task on the job's fastest type
  private double meanComputeMs = Double.NaN; // one task on the average GPU it can run on
  double serviceMs; // attained service, GPU-ms on the average GPU, of every finished round
  double key;
  boolean indexed; // in the policy's ready index

  HlasJob(JobView view, long rank) {
    this.view = view;
    this.id = view.id();
    this.rank = rank;
    this.arrivalMs = view.arrivalMs();
    this.weight = view.weight();
    this.tasksPerRound = view.tasksPerRound();
  }

  @Override
  public JobView view() {
    return view;
  }

  @Override
  public double refComputeMs() {
    return bestComputeMs;
  }

  @Override
  public double computeMs(int t) {
    return computeMs[t];
  }

  /** Adds one finished round to the attained service. */
  void roundDone() {
    if (!Double.isNaN(meanComputeMs)) {
      serviceMs += tasksPerRound * meanComputeMs;
    }
  }

  /** Weighted attained service plus aging credit for arriving early. */
  void rekey(double agingRate) {
    key = serviceMs / weight + agingRate * arrivalMs;
  }

  /** Whether the cached times are for the cluster's current types. */
  boolean current(ClusterTypes types) {
    return typesVersion == types.version();
  }

  /**
   * Reads the job's compute time on each type of the cluster (NaN where it cannot run), its
   * best one and its mean over the GPUs it can run on. Done when the cluster's types change and
   * at each round barrier, so estimates that the host refines from measured tasks are followed.
   *
   * @return false if it runs on none of the cluster's types
   */
  boolean refresh(ClusterTypes types) {
    int n = types.size();
    if (computeMs.length != n) {
      computeMs = new double[n];
    }
    double best = Double.POSITIVE_INFINITY;
    double sum = 0;
    long gpus = 0;
    for (int i = 0; i < n; i++) {
      TaskTimes tt = view.times(types.types().get(i));
      computeMs[i] = tt == null ? Double.NaN : tt.computeMs();
      if (tt != null) {
        best = Math.min(best, tt.computeMs());
        sum += types.count(i) * tt.computeMs();
        gpus += types.count(i);
      }
    }
    bestComputeMs = gpus == 0 ? Double.NaN : best;
    meanComputeMs = gpus == 0 ? Double.NaN : sum / gpus;
    typesVersion = types.version();
    return gpus > 0;
  }
}
