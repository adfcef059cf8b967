package io.hare.core.plan;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.TaskTimeModel;
import java.util.List;

/** A lower bound on the total weighted JCT of any schedule, from the LP relaxation. */
public final class RelaxationBound {

  private RelaxationBound() {}

  /**
   * Lower bound on sum of weight x JCT over all jobs, in seconds. For now the critical path
   * only: each job needs at least R rounds of its fastest compute + sync.
   */
  public static double totalWeightedJctS(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times) {
    double total = 0;
    for (JobSpec j : jobs) {
      double best = Double.POSITIVE_INFINITY;
      for (GpuType t : cluster.types()) {
        TaskTimes tt = times.times(j.model(), t);
        if (tt != null && cluster.count(t) > 0) {
          best = Math.min(best, tt.roundMs());
        }
      }
      if (best < Double.POSITIVE_INFINITY) {
        total += j.weight() * j.rounds() * best / 1000.0;
      }
    }
    return total;
  }
}
