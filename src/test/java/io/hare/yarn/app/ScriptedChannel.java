package io.hare.yarn.app;

import static org.junit.Assert.assertNotNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * The AM's side of the task channel as a test scripts it, for one container: after each
 * {@code done} the next scripted answer (a task, {@link RunnerServer.Next#PARK}, or exit when
 * the script is over); each {@code ready} waits until the test hands the worker a task
 * ({@link #nextReady}). Records what the worker said, as {@code done R I CODE} and
 * {@code ready}.
 */
final class ScriptedChannel implements RunnerServer.Handler {

  final List<String> reports = Collections.synchronizedList(new ArrayList<>());
  private final Deque<Optional<RunnerServer.Next>> answers = new ArrayDeque<>();
  private final BlockingQueue<CompletableFuture<Optional<RunnerServer.Next>>> waiting =
      new LinkedBlockingQueue<>();
  /** The task the container holds, for the server's check of its {@code done}. */
  volatile RunnerServer.Next given;

  /** A container whose first task is {@code first} (null: a standby), then these answers. */
  ScriptedChannel(RunnerServer.Next first, RunnerServer.Next... answers) {
    this.given = first;
    for (RunnerServer.Next a : answers) {
      then(a);
    }
  }

  /** Answers the next {@code done} with {@code next}. */
  synchronized ScriptedChannel then(RunnerServer.Next next) {
    answers.add(Optional.of(next));
    return this;
  }

  @Override
  public synchronized Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
    reports.add("done " + given.round() + " " + given.index() + " " + code);
    Optional<RunnerServer.Next> next = answers.isEmpty() ? Optional.empty() : answers.poll();
    next.filter(n -> !n.parks()).ifPresent(n -> given = n);
    return next;
  }

  @Override
  public Optional<RunnerServer.Next> taskOf(ContainerId c) {
    return Optional.ofNullable(given);
  }

  @Override
  public CompletableFuture<Optional<RunnerServer.Next>> standby(ContainerId c) {
    reports.add("ready");
    CompletableFuture<Optional<RunnerServer.Next>> f = new CompletableFuture<>();
    waiting.add(f);
    return f;
  }

  @Override
  public int containersHeld() {
    return 1;
  }

  /** Waits for the worker's next {@code ready}; hands it {@code task}, or exit when empty. */
  void answerReady(Optional<RunnerServer.Next> task) throws InterruptedException {
    hand(nextReady(), task);
  }

  /** Waits for the worker's next {@code ready}: the answer the test completes with {@link #hand}. */
  CompletableFuture<Optional<RunnerServer.Next>> nextReady() throws InterruptedException {
    CompletableFuture<Optional<RunnerServer.Next>> f = waiting.poll(60, TimeUnit.SECONDS);
    assertNotNull("the worker never said ready", f);
    return f;
  }

  /** Answers a {@code ready} with {@code task}, or exit when empty. */
  void hand(CompletableFuture<Optional<RunnerServer.Next>> ready,
      Optional<RunnerServer.Next> task) {
    task.ifPresent(t -> given = t);
    ready.complete(task);
  }

  /** Answers a {@code ready} with {@code task}, or exit when null. */
  void hand(CompletableFuture<Optional<RunnerServer.Next>> ready, RunnerServer.Next task) {
    hand(ready, Optional.ofNullable(task));
  }

  /** The credentials file the NodeManager writes for {@code container} from its tokens. */
  static Path credentials(ChannelKeys keys, ContainerId container, Path file)
      throws IOException {
    ByteBuffer b = keys.tokens(container, null);
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return Files.write(file, bytes);
  }
}
