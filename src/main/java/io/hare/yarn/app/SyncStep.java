package io.hare.yarn.app;

import java.util.function.IntConsumer;

/**
 * Runs a round's sync step. {@link #start} must not block: it starts the step and later calls
 * {@code onExit} with its exit status (0: success), from any thread.
 */
public interface SyncStep {

  void start(int round, IntConsumer onExit);

  /** Where a round's sync output can be read, for diagnostics. */
  String logLocation(int round);
}
