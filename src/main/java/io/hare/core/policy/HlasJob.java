package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.Comparator;
import java.util.List;

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

  double[] computeMs = new double[0]; // per type index of the policy's type list; NaN = cannot
  int typesVersion = -1; // version of the type list computeMs was read for
  double refComputeMs = Double.NaN; // one task's compute time on the job's best type
  double serviceMs; // attained service: reference GPU-ms of every finished round
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
    return refComputeMs;
  }

  @Override
  public double computeMs(int t) {
    return computeMs[t];
  }

  /** Weighted attained service plus aging credit for arriving early. */
  void rekey(double agingRate) {
    key = serviceMs / weight + agingRate * arrivalMs;
  }

  /**
   * Reads the job's compute time on each type of the cluster (NaN where it cannot run) and its
   * best one. Done when the cluster's types change and at each round barrier, so estimates that
   * the host refines from measured tasks are followed. False if it runs on none of them.
   */
  boolean refresh(List<GpuType> types, int version) {
    if (computeMs.length != types.size()) {
      computeMs = new double[types.size()];
    }
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < computeMs.length; i++) {
      TaskTimes tt = view.times(types.get(i));
      computeMs[i] = tt == null ? Double.NaN : tt.computeMs();
      best = tt == null ? best : Math.min(best, tt.computeMs());
    }
    refComputeMs = best == Double.POSITIVE_INFINITY ? Double.NaN : best;
    typesVersion = version;
    return !Double.isNaN(refComputeMs);
  }
}
