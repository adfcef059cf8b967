package io.hare.core.plan;

/**
 * The optimum of the fluid relaxation: for each job, how many tasks the relaxation processes by
 * the end of each interval, and the objective.
 *
 * @param optimal whether the solver proved optimality (false: no usable solution)
 * @param objective sum over jobs of weight x relaxed completion time, completions in ms after
 *     {@code nowMs} (a lower bound on the same sum for any feasible schedule)
 * @param gridMs interval ends in ms after now: interval t is [gridMs[t-1], gridMs[t]], gridMs[0] = 0
 * @param cumulative per job (problem order), tasks processed by gridMs[t], t = 0..T
 * @param completionMs per job, the relaxed completion time in ms after now
 * @param typeShare per job, per type index, the share of its relaxed work done on that type
 * @param solveNanos time spent in the LP solver
 */
public record FluidSolution(boolean optimal, double objective, double[] gridMs,
    double[][] cumulative, double[] completionMs, double[][] typeShare, long solveNanos) {}
