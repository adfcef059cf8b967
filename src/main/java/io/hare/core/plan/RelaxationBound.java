package io.hare.core.plan;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.TaskTimeModel;
import java.util.List;

/** A lower bound on the total weighted JCT of any schedule, from the LP relaxation. */
public final class RelaxationBound {

  private RelaxationBound() {}

  /** Lower bound on sum of weight x JCT over all jobs, in seconds. */
  public static double totalWeightedJctS(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times) {
    throw new UnsupportedOperationException("not built yet");
  }
}
