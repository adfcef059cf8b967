package io.hare.core.policy;

/**
 * A re-plan split in two for a host that keeps scheduling while it solves
 * ({@link SchedulingPolicy#startReplan}). The policy took what the plan needs from the cluster
 * when it made this; {@link #solve} does the heavy part on any thread, reading none of what the
 * policy's callbacks or the cluster view change, and the host installs what it returns under the
 * policy's one-thread rule at a later instant. Until then the policy decides by its previous
 * plan.
 */
@FunctionalInterface
public interface Replan {

  /** The heavy part; any thread, at most once. */
  Solved solve();

  /** A solved plan, waiting to be installed. */
  @FunctionalInterface
  interface Solved {

    /**
     * Makes the plan the policy's, at {@code nowMs} (at or after the start): under the one-thread
     * rule, with the cluster as it is now (jobs may have arrived or left since the start).
     */
    void install(ClusterView cluster, long nowMs);
  }
}
