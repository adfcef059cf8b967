package io.hare.yarn.app;

import java.util.Locale;
import java.util.Optional;

/**
 * How the ApplicationMaster runs a job's sync command ({@code yarn.app.hare.sync.mode}).
 *
 * <ul>
 *   <li>{@link #PROCESS}: a new process for every round ({@link ProcessSyncStep}).
 *   <li>{@link #RESIDENT}: one process for the job, given round after round on its standard
 *       input ({@link ResidentSyncStep}; the worker libraries' sync loop), so the framework's
 *       import and the model are built once, not once per round.
 * </ul>
 */
public enum SyncMode {
  PROCESS, RESIDENT;

  /** The name in a job spec. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode named {@code s} (any case); empty when there is none. */
  public static Optional<SyncMode> parse(String s) {
    return TaskMode.parse(s).map(m -> valueOf(m.name()));
  }
}
