package io.hare.core.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * An estimate of when each active job completes, from a policy's current order: what is left of
 * every job list-scheduled ({@link ListScheduler}) onto the GPUs from the moment the forecast was
 * taken, with the task-time estimates the policy plans with. It is an estimate, not a promise: it
 * assumes every task takes its estimated time, no task fails, no job arrives, and the GPUs follow
 * the order as the list schedule does; a job without a declared number of rounds is planned as
 * the policy guesses it (see the policy). The next forecast, taken on the state of then, corrects
 * it. Hosts (the ResourceManager's scheduler page, the simulator) show it as such.
 *
 * @param atMs when the forecast was taken (the host's clock)
 * @param completionMs predicted completion per job id (end of its last sync), on the same clock
 * @param complete false when the list schedule stopped at its task cap: the jobs it did not reach
 *     have no prediction
 */
public record Forecast(long atMs, Map<String, Long> completionMs, boolean complete) {

  public Forecast {
    completionMs = Map.copyOf(completionMs);
  }

  /**
   * Lists what is left of {@code p}'s jobs in {@code order} onto its GPUs. A job with no task
   * left to start completes when its running tasks' syncs end ({@link PlanJob#committedEndMs}).
   */
  public static Forecast listScheduled(PlanningProblem p, List<GroupRef> order,
      ListScheduler.Options options, String[] lastJobOnGpu) {
    Plan plan = ListScheduler.schedule(p, order, options, lastJobOnGpu);
    Map<String, Long> out = new HashMap<>(plan.completionMs());
    for (PlanJob j : p.jobs()) {
      if (j.groups() == 0) {
        out.put(j.id(), j.committedEndMs());
      }
    }
    return new Forecast(p.nowMs(), out, plan.complete());
  }

  /** The predicted completion of {@code jobId}; empty when the forecast did not reach it. */
  public OptionalLong completionMs(String jobId) {
    Long c = completionMs.get(jobId);
    return c == null ? OptionalLong.empty() : OptionalLong.of(c);
  }
}
