package io.hare.yarn.app;

import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.Container;

/**
 * The k tasks of one round: which wait for a container, which run (on which attempt), which are
 * done. Not thread-safe; {@link RoundProtocol} holds it under its lock.
 */
final class RoundTasks {

  /** One run of a task in a container; {@code number} counts from 1. */
  record Attempt(int round, int index, int number, Container container) {}

  private enum State { WAITING, RUNNING, DONE }

  private final int round;
  private final State[] states;
  private final int[] attempts;
  private int done;

  RoundTasks(int round, int k) {
    this.round = round;
    this.states = new State[k];
    this.attempts = new int[k];
    Arrays.fill(states, State.WAITING);
  }

  int round() {
    return round;
  }

  /** The lowest-index task waiting for a container. */
  Optional<Integer> nextWaiting() {
    for (int i = 0; i < states.length; i++) {
      if (states[i] == State.WAITING) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  Attempt assign(int index, Container c) {
    states[index] = State.RUNNING;
    attempts[index]++;
    return new Attempt(round, index, attempts[index], c);
  }

  void done(int index) {
    states[index] = State.DONE;
    done++;
  }

  void retry(int index) {
    states[index] = State.WAITING;
  }

  int done() {
    return done;
  }

  boolean allDone() {
    return done == states.length;
  }
}
