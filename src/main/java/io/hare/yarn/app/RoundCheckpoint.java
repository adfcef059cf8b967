package io.hare.yarn.app;

import java.io.IOException;

/**
 * How many rounds of the job are finished (tasks done and synced), kept where a new AM attempt
 * finds it. {@link #save} is called once per round, after the round's sync step succeeded.
 */
public interface RoundCheckpoint {

  /** Rounds finished so far; 0 for a new job. */
  int roundsDone() throws IOException;

  void save(int roundsDone) throws IOException;
}
