package io.hare.core.queues;

import io.hare.core.policy.JobView;

/**
 * A job as {@link QueueGuarantees} sees it: the policy's view of it, plus its queue and a way to
 * keep some of its ready tasks from the policy for one offer. The RM's and the simulator's jobs
 * implement it, so both run the same guarantees.
 */
public interface QueuedJob extends JobView {

  /** The queue the job runs in. */
  String queue();

  /**
   * Keeps {@code n} of the job's ready tasks from the policy ({@link #readyTasks()} shows that
   * many fewer) and, with {@code leftOut}, the whole job ({@link #leftOut()}), until
   * {@code hide(0, false)}; called only around one {@code assign}, under the host's policy lock.
   */
  void hide(int n, boolean leftOut);
}
