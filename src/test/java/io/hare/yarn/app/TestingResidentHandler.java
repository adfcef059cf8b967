package io.hare.yarn.app;

import static org.junit.Assert.assertNotNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * The AM's side of the task channel, scripted: after each report the next of its answers (a
 * task, {@link RunnerServer.Next#PARK}; exit once they run out); a runner that says ready waits
 * until the test hands it a task ({@link #nextReady}). Records every report.
 */
class TestingResidentHandler implements RunnerServer.Handler {
  final List<String> reports = Collections.synchronizedList(new ArrayList<>());
  private final BlockingQueue<RunnerServer.Next> answers = new LinkedBlockingQueue<>();
  private final BlockingQueue<CompletableFuture<Optional<RunnerServer.Next>>> waiting =
      new LinkedBlockingQueue<>();
  /** The task the AM gave the container last (the first task's, or null for a standby). */
  volatile RunnerServer.Next given;

  TestingResidentHandler(RunnerServer.Next first, RunnerServer.Next... answers) {
    given = first;
    this.answers.addAll(List.of(answers));
  }

  @Override
  public Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
    reports.add(c + " " + code);
    Optional<RunnerServer.Next> next = Optional.ofNullable(answers.poll());
    next.filter(n -> !n.parks()).ifPresent(n -> given = n);
    return next;
  }

  @Override
  public CompletableFuture<Optional<RunnerServer.Next>> standby(ContainerId c) {
    reports.add(c + " ready");
    CompletableFuture<Optional<RunnerServer.Next>> f = new CompletableFuture<>();
    waiting.add(f);
    return f;
  }

  @Override
  public Optional<RunnerServer.Next> taskOf(ContainerId c) {
    return Optional.ofNullable(given);
  }

  /** The answer a ready runner waits for; fails the test if none is ready within 60 s. */
  CompletableFuture<Optional<RunnerServer.Next>> nextReady() throws InterruptedException {
    CompletableFuture<Optional<RunnerServer.Next>> f = waiting.poll(60, TimeUnit.SECONDS);
    assertNotNull("no runner said ready", f);
    return f;
  }

  /** Hands the ready runner {@code next}, or exit when null. */
  void hand(CompletableFuture<Optional<RunnerServer.Next>> ready, RunnerServer.Next next) {
    if (next != null) {
      given = next;
    }
    ready.complete(Optional.ofNullable(next));
  }
}
