package io.hare.sim;

import io.hare.core.JobSpec;

/**
 * How one job fared.
 *
 * @param completionMs end of its last round's sync, or -1 if it did not finish
 * @param queue the queue it ran in
 */
public record JobOutcome(String jobId, double weight, String model, int tasksPerRound, int rounds,
    long arrivalMs, long completionMs, String queue) {

  /** In the {@code default} queue. */
  public JobOutcome(String jobId, double weight, String model, int tasksPerRound, int rounds,
      long arrivalMs, long completionMs) {
    this(jobId, weight, model, tasksPerRound, rounds, arrivalMs, completionMs,
        JobSpec.DEFAULT_QUEUE);
  }

  public boolean finished() {
    return completionMs >= 0;
  }

  /** Job completion time (completion minus arrival) in seconds; NaN if unfinished. */
  public double jctS() {
    return finished() ? (completionMs - arrivalMs) / 1000.0 : Double.NaN;
  }
}
