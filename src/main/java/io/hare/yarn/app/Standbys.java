package io.hare.yarn.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * A job's standby containers: pre-launched by the scheduler without a GPU for the job next in
 * line for one, each waits (its runner connected) until the scheduler promotes it, giving it the
 * GPU, or kills it. Holds the answer each standby's runner waits for: its first task, or exit.
 * Not thread-safe; {@link RoundProtocol} holds it under its lock.
 */
final class Standbys {

  /** Standbys not promoted yet. */
  private final Map<ContainerId, Container> idle = new HashMap<>();
  /** The answer of each standby's runner, until its container ends. */
  private final Map<ContainerId, CompletableFuture<Optional<RunnerServer.Next>>> answers =
      new HashMap<>();
  /** Standbys whose runner said ready: a second connection saying so gets exit. */
  private final Set<ContainerId> heard = new HashSet<>();
  /**
   * Promoted standbys whose first task has not been reported: its result comes from the runner
   * only, so the container's end, even with status 0, is no success (a runner that found no AM
   * exits 0 having run nothing).
   */
  private final Set<ContainerId> unreported = new HashSet<>();

  /** A standby the scheduler made. */
  void add(Container c) {
    waitForGpu(c);
  }

  /**
   * A warm container whose task ended, parked (its runner told {@code park}): a standby like
   * the others from now on, its runner saying ready again.
   */
  void park(Container c) {
    heard.remove(c.getId());
    unreported.remove(c.getId());
    waitForGpu(c);
  }

  private void waitForGpu(Container c) {
    idle.put(c.getId(), c);
    answers.put(c.getId(), new CompletableFuture<>());
  }

  /** Whether a standby waits for its GPU. */
  boolean anyIdle() {
    return !idle.isEmpty();
  }

  /** Standbys waiting for their GPU. */
  int idleCount() {
    return idle.size();
  }

  /** The standbys waiting for their GPU. */
  List<ContainerId> idleIds() {
    return new ArrayList<>(idle.keySet());
  }

  boolean isIdle(ContainerId id) {
    return idle.containsKey(id);
  }

  /** The standby now holds the GPU: its runner runs {@code first}, now or once it is ready. */
  void promote(ContainerId id, RunnerServer.Next first) {
    idle.remove(id);
    unreported.add(id);
    answers.get(id).complete(Optional.of(first));
  }

  /** The runner of {@code id} is ready: its answer (exit for an unknown container). */
  CompletableFuture<Optional<RunnerServer.Next>> ready(ContainerId id) {
    CompletableFuture<Optional<RunnerServer.Next>> answer = answers.get(id);
    if (answer == null || !heard.add(id)) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return answer;
  }

  /** The promoted standby's runner reported a task: from now on it is a plain warm container. */
  void reported(ContainerId id) {
    unreported.remove(id);
  }

  boolean unreported(ContainerId id) {
    return unreported.contains(id);
  }

  /**
   * Forgets {@code id} (given up, or its container ended); a runner still waiting is told exit.
   *
   * @return whether it was a standby not promoted
   */
  boolean forget(ContainerId id) {
    unreported.remove(id);
    heard.remove(id);
    CompletableFuture<Optional<RunnerServer.Next>> answer = answers.remove(id);
    if (answer != null) {
      answer.complete(Optional.empty());
    }
    return idle.remove(id) != null;
  }

  /** Forgets every standby not promoted, as {@link #forget} does; their ids. */
  List<ContainerId> forgetIdle() {
    List<ContainerId> ids = new ArrayList<>(idle.keySet());
    ids.forEach(this::forget);
    return ids;
  }
}
