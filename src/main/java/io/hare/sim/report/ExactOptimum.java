package io.hare.sim.report;

import io.hare.core.plan.ExactSchedule;

/**
 * What CP-SAT found for a whole (tiny) workload, as {@code hare simulate --exact} reports it.
 *
 * @param totalWeightedJctS the best schedule's total weighted JCT in seconds: the optimum when
 *     {@code proven}
 * @param proven whether CP-SAT proved it optimal within the time limit
 * @param lowerBoundS CP-SAT's own lower bound in seconds (equal to the value when proven)
 * @param solveS wall time of the solve in seconds
 */
public record ExactOptimum(double totalWeightedJctS, boolean proven, double lowerBoundS,
    double solveS) {

  /** From the solver's answer. */
  public static ExactOptimum of(ExactSchedule s) {
    return new ExactOptimum(s.weightedJctS(), s.optimal(),
        s.optimal() ? s.weightedJctS() : s.jctLowerBoundS(), s.wallS());
  }
}
