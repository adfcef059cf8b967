package io.hare.core.plan;

import java.util.List;
import java.util.Map;

/**
 * The result of list scheduling: for each GPU the tasks it should run, in order, with their
 * planned times, and each job's predicted completion.
 *
 * @param perGpu planned tasks per GPU id, in execution order
 * @param completionMs predicted completion per job id (end of its last planned sync)
 * @param complete whether every unstarted task of every job was planned (false when the plan
 *     stopped at its task cap)
 */
public record Plan(Map<String, List<PlannedTask>> perGpu, Map<String, Long> completionMs,
    boolean complete) {

  /** Sum of weight x (predicted completion - arrival), in seconds, over the given jobs. */
  public double predictedWeightedJctS(PlanningProblem p) {
    double s = 0;
    for (PlanJob j : p.jobs()) {
      Long c = completionMs.get(j.id());
      long end = c != null ? c : j.committedEndMs();
      s += j.weight() * (end - j.arrivalMs()) / 1000.0;
    }
    return s;
  }
}
