package io.hare.core;

/**
 * What a user submits: a synchronous data-parallel job of {@code rounds} rounds with exactly
 * {@code tasksPerRound} tasks (gradients) per round.
 *
 * @param id unique job id
 * @param arrivalMs submission time, milliseconds on the host's clock
 * @param weight importance in the total weighted JCT objective, finite and &gt; 0
 * @param model profile name: selects the per-GPU-type task times
 * @param tasksPerRound the job's fixed scale k, &gt;= 1
 * @param rounds number of rounds R, &gt;= 1. Non-clairvoyant policies never see it.
 * @param queue the queue it is submitted to ({@code yarn.scheduler.hare.queues})
 */
public record JobSpec(String id, long arrivalMs, double weight, String model, int tasksPerRound,
    int rounds, String queue) {

  /** The queue of a job that names none. */
  public static final String DEFAULT_QUEUE = SchedulerKeys.DEFAULT_QUEUES;

  /** In the {@code default} queue. */
  public JobSpec(String id, long arrivalMs, double weight, String model, int tasksPerRound,
      int rounds) {
    this(id, arrivalMs, weight, model, tasksPerRound, rounds, DEFAULT_QUEUE);
  }

  public JobSpec {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("job id must not be blank");
    }
    if (arrivalMs < 0) {
      throw new IllegalArgumentException("job " + id + ": arrival must be >= 0 ms, got " + arrivalMs);
    }
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("job " + id + ": weight must be finite and > 0, got " + weight);
    }
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("job " + id + ": model must not be blank");
    }
    if (tasksPerRound < 1) {
      throw new IllegalArgumentException(
          "job " + id + ": tasks per round must be >= 1, got " + tasksPerRound);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("job " + id + ": rounds must be >= 1, got " + rounds);
    }
    if (queue == null || queue.isBlank()) {
      throw new IllegalArgumentException("job " + id + ": queue must not be blank");
    }
  }

  /** The same job in {@code q}. */
  public JobSpec inQueue(String q) {
    return new JobSpec(id, arrivalMs, weight, model, tasksPerRound, rounds, q);
  }

  /** Total number of tasks the job runs: rounds x tasks per round. */
  public long totalTasks() {
    return (long) rounds * tasksPerRound;
  }
}
