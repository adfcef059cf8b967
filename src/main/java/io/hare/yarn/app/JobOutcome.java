package io.hare.yarn.app;

/**
 * How a job ended, for the AM's unregister call.
 *
 * @param succeeded all rounds done and synced
 * @param roundsDone rounds finished (checkpointed)
 * @param diagnostics for a failure: what failed, its exit code and where its log is
 */
public record JobOutcome(boolean succeeded, int roundsDone, String diagnostics) {}
