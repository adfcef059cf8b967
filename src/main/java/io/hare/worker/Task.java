package io.hare.worker;

import java.util.OptionalInt;

/**
 * One task the ApplicationMaster hands a resident worker: task {@code index} of round
 * {@code round} of the worker's job, on GPU {@code device} of the node where Hare assigns devices
 * (absent where YARN isolates the container's GPU, which then is the only one it sees).
 */
public record Task(int round, int index, OptionalInt device) {

  public Task {
    if (round < 0 || index < 0) {
      throw new IllegalArgumentException("a task's round and index are >= 0, got round " + round
          + " index " + index);
    }
  }

  /** {@code round R task I} for logs. */
  public String label() {
    return "round " + round + " task " + index
        + (device.isPresent() ? " on GPU " + device.getAsInt() : "");
  }
}
