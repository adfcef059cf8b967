package io.hare.sim;

import io.hare.core.queues.QueueShares;

/**
 * Knobs of one simulation run.
 *
 * @param switchMs time a task pays before computing when the previous task on its GPU belonged to
 *     another job (CUDA context and model load in the paper, container start on YARN), &gt;= 0
 * @param recordTasks keep every {@link TaskRecord} (needed for pictures and checks; costs memory
 *     on large traces)
 * @param profileError how far the true task times are from the profiles the policies are told
 * @param queues the queues and their GPU shares; with {@code default} alone
 *     ({@link QueueShares#single}) the policy sees every job, as without queues
 */
public record SimOptions(long switchMs, boolean recordTasks, ProfileError profileError,
    QueueShares queues) {

  public SimOptions {
    if (switchMs < 0) {
      throw new IllegalArgumentException("switch time must be >= 0 ms, got " + switchMs);
    }
    if (profileError == null) {
      throw new IllegalArgumentException("profileError is null; ProfileError.NONE for none");
    }
    if (queues == null) {
      throw new IllegalArgumentException("queues is null; QueueShares.single() for none");
    }
  }

  /** One queue. */
  public SimOptions(long switchMs, boolean recordTasks, ProfileError profileError) {
    this(switchMs, recordTasks, profileError, QueueShares.single());
  }

  /** The same options with {@code q} as the queues. */
  public SimOptions withQueues(QueueShares q) {
    return new SimOptions(switchMs, recordTasks, profileError, q);
  }

  /** Profiles are right. */
  public SimOptions(long switchMs, boolean recordTasks) {
    this(switchMs, recordTasks, ProfileError.NONE);
  }

  public static SimOptions defaults() {
    return new SimOptions(0, true);
  }
}
