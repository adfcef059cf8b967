package io.hare.sim.report;

import io.hare.sim.SimResult;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The results of several policies on one workload and cluster, in the order the user listed the
 * policies, with the lower bound on the total weighted JCT that any schedule must respect.
 *
 * <p>"Best" is the smallest total weighted JCT among the policies that finished every job: a
 * policy that leaves jobs unfinished has a smaller sum only because it counts fewer jobs, so it
 * can neither be the best nor be compared fairly (its ratios are still shown, for what they are).
 *
 * @param workload where the jobs came from (paper, philly or the jobs file)
 * @param cluster the cluster in its textual form, e.g. {@code v100=40,t4=40}
 * @param jobs number of jobs in the workload
 * @param switchMs the task switch time every run used
 * @param lowerBoundS lower bound on the total weighted JCT in seconds; NaN when unavailable
 * @param criticalPathS the jobs' critical paths alone, weighted, in seconds (the bound without
 *     contention for GPUs); NaN when unavailable
 * @param exact what CP-SAT found for the workload ({@code --exact}), or null when not asked
 */
public record Comparison(String workload, String cluster, int jobs, long switchMs,
    double lowerBoundS, List<SimResult> results, double criticalPathS, ExactOptimum exact) {

  public Comparison {
    results = List.copyOf(results);
  }

  /** Without an exact optimum. */
  public Comparison(String workload, String cluster, int jobs, long switchMs, double lowerBoundS,
      List<SimResult> results, double criticalPathS) {
    this(workload, cluster, jobs, switchMs, lowerBoundS, results, criticalPathS, null);
  }

  /** The same comparison with CP-SAT's answer beside the bound. */
  public Comparison withExact(ExactOptimum e) {
    return new Comparison(workload, cluster, jobs, switchMs, lowerBoundS, results, criticalPathS,
        e);
  }

  /** The result's total weighted JCT over the exact optimum; NaN when there is none. */
  public double ratioToExact(SimResult r) {
    return exact == null ? Double.NaN : ratio(r.totalWeightedJctS(), exact.totalWeightedJctS());
  }

  /** Without the critical-path sum. */
  public Comparison(String workload, String cluster, int jobs, long switchMs, double lowerBoundS,
      List<SimResult> results) {
    this(workload, cluster, jobs, switchMs, lowerBoundS, results, Double.NaN);
  }

  /** Smallest total weighted JCT among policies that finished every job; empty if none did. */
  public OptionalDouble bestTotalWeightedJctS() {
    return results.stream().filter(r -> r.unfinishedJobs() == 0)
        .mapToDouble(SimResult::totalWeightedJctS).min();
  }

  /** The result's total weighted JCT over the best one; NaN when there is no best or it is 0. */
  public double ratioToBest(SimResult r) {
    OptionalDouble best = bestTotalWeightedJctS();
    return best.isPresent() ? ratio(r.totalWeightedJctS(), best.getAsDouble()) : Double.NaN;
  }

  /** The result's total weighted JCT over the lower bound; NaN when the bound is unavailable. */
  public double ratioToLowerBound(SimResult r) {
    return ratio(r.totalWeightedJctS(), lowerBoundS);
  }

  private static double ratio(double value, double base) {
    return base > 0 && Double.isFinite(base) ? value / base : Double.NaN;
  }
}
