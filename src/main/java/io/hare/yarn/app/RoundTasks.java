package io.hare.yarn.app;

import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.Container;

/**
 * The k tasks of one round: which wait for a container, which run (on which attempt), which are
 * done, and how often each failed through its own fault or was lost to its node or the cluster
 * ({@link TaskEnds}). Not thread-safe; {@link RoundProtocol} holds it under its lock.
 */
final class RoundTasks {

  /** One run of a task in a container; {@code number} counts from 1. */
  record Attempt(int round, int index, int number, Container container) {}

  private enum State { WAITING, RUNNING, DONE }

  private final int round;
  private final State[] states;
  private final int[] attempts;
  private final int[] failures;
  private final int[] losses;
  private int done;

  RoundTasks(int round, int k) {
    this.round = round;
    this.states = new State[k];
    this.attempts = new int[k];
    this.failures = new int[k];
    this.losses = new int[k];
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

  /**
   * The task's attempt failed through its own fault; it waits for a container again.
   *
   * @return its failures in this round so far
   */
  int failed(int index) {
    states[index] = State.WAITING;
    return ++failures[index];
  }

  /**
   * The task's attempt was lost to its node or the cluster; it waits for a container again.
   *
   * @return its losses in this round so far
   */
  int lost(int index) {
    states[index] = State.WAITING;
    return ++losses[index];
  }

  int done() {
    return done;
  }

  boolean allDone() {
    return done == states.length;
  }
}
