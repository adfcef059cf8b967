package io.hare.demo;

import io.hare.embedded.TaskEvents;

/**
 * A fault the harness does at a moment it watches for: {@link #due} on each poll until it is
 * true, then {@link #inject} once, then {@link #settled} on each poll until the cluster has
 * recovered (the next fault waits for that, so that faults do not pile onto each other).
 */
interface ActiveFault {

  Fault kind();

  /** Whether its moment has come. */
  boolean due(RunView run) throws Exception;

  /** Does it; null if it could not after all (it is tried again at the next poll). */
  Injected inject(RunView run) throws Exception;

  /** Whether YARN has recovered from it. */
  boolean settled(RunView run) throws Exception;

  /** Its moment, in words, for the report of a fault that never came due. */
  String moment();

  /** Rounds of the job whose sync step succeeded (distinct rounds). */
  static int roundsSynced(TaskEvents.Runs runs) {
    return (int) runs.syncs().stream().filter(s -> s.endMs() >= 0 && s.exitCode() == 0)
        .mapToInt(TaskEvents.Sync::round).distinct().count();
  }

  /** "round R task I (CONTAINER)" of an attempt. */
  static String describe(TaskEvents.Attempt a) {
    return "round " + a.round() + " task " + a.index() + " (" + a.containerId() + ")";
  }
}
