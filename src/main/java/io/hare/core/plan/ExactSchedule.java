package io.hare.core.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link ExactSolver} found: a complete schedule of every task, the per-job completion times
 * it implies and the total weighted completion time and JCT computed from it. Immutable.
 *
 * <p>The objective values are recomputed from the placed tasks, never read back from the solver,
 * so they always describe the schedule in {@link #tasks()}.
 *
 * @param status whether the schedule is proven optimal
 * @param tasks every task of every job, in job, round, index order
 * @param completionMs per job id (in the order the jobs were given): the end of its last round's
 *     sync
 * @param weightedCompletionS sum over jobs of weight x completion time, seconds
 * @param weightedJctS sum over jobs of weight x (completion - arrival), seconds; it differs from
 *     {@code weightedCompletionS} by the constant sum of weight x arrival, so both have the same
 *     minimisers
 * @param jctLowerBoundS a proven lower bound on the weighted JCT of every schedule of the
 *     instance (equal to {@code weightedJctS} when optimal, up to rounding of the weights)
 * @param wallS seconds spent solving
 */
public record ExactSchedule(Status status, List<ScheduledTask> tasks, Map<String, Long> completionMs,
    double weightedCompletionS, double weightedJctS, double jctLowerBoundS, double wallS) {

  /** How good the schedule is known to be. */
  public enum Status {
    /** Proven optimal. */
    OPTIMAL,
    /** The time limit hit: the best schedule CP-SAT found, not proven optimal. */
    FEASIBLE,
    /** The time limit hit before CP-SAT found any schedule: a greedy list schedule. */
    HEURISTIC
  }

  public ExactSchedule {
    Objects.requireNonNull(status, "status");
    tasks = List.copyOf(tasks);
    completionMs = Collections.unmodifiableMap(new LinkedHashMap<>(completionMs));
  }

  public boolean optimal() {
    return status == Status.OPTIMAL;
  }

  /** The time limit stopped the search: the schedule may be worse than the optimum. */
  public boolean timeLimitHit() {
    return status != Status.OPTIMAL;
  }
}
