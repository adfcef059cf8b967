package io.hare.yarn.app;

/**
 * How a job attempt ended, for the AM's unregister call.
 *
 * @param succeeded all rounds done and synced
 * @param roundsDone rounds finished (checkpointed)
 * @param diagnostics for a failure: what failed, its exit code and where its log is
 * @param final_ whether the job is over: false when the AM lost YARN (its ResourceManager
 *     connection failed, or the RM asked it to shut down), so it must exit without
 *     unregistering and let YARN start another attempt, which resumes after the last finished
 *     round
 */
public record JobOutcome(boolean succeeded, int roundsDone, String diagnostics,
    boolean final_) {

  /** The job is over: it succeeded or failed for good. */
  public JobOutcome(boolean succeeded, int roundsDone, String diagnostics) {
    this(succeeded, roundsDone, diagnostics, true);
  }
}
