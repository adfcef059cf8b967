package io.hare.yarn.app.tokens;

import java.util.ArrayList;
import java.util.List;

/** A {@link RefreshScheduler} whose waits the test runs by hand: it records each delay asked. */
final class TestingRefreshScheduler implements RefreshScheduler {

  /** The delays asked, in order. */
  final List<Long> delays = new ArrayList<>();
  private final List<Runnable> due = new ArrayList<>();
  boolean closed;

  @Override
  public void schedule(Runnable task, long delayMs) {
    delays.add(delayMs);
    due.add(task);
  }

  /** Runs the task scheduled first and not yet run. */
  void runNext() {
    due.remove(0).run();
  }

  int pending() {
    return due.size();
  }

  @Override
  public void close() {
    closed = true;
  }
}
