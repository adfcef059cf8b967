package io.hare.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Wraps the Hare scheduler's re-plan executor (its {@code hare-replan} thread) to time each
 * re-plan where it runs and to let the bench wait, between ticks, until none is in flight. A
 * re-plan task takes the policy lock, solves and releases it, so its run time is the re-plan's
 * time (plus a lock wait of at most one scheduler callback).
 */
final class TimedExecutor extends AbstractExecutorService implements ReplanTimes {

  private final ExecutorService delegate;
  private final List<Long> nanos = new ArrayList<>();
  private int inFlight;

  TimedExecutor(ExecutorService delegate) {
    this.delegate = delegate;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (this) {
      inFlight++;
    }
    try {
      delegate.execute(() -> {
        long t0 = System.nanoTime();
        try {
          task.run();
        } finally {
          finished(System.nanoTime() - t0);
        }
      });
    } catch (RuntimeException e) {
      finished(-1);
      throw e;
    }
  }

  private synchronized void finished(long took) {
    if (took >= 0) {
      nanos.add(took);
    }
    inFlight--;
    notifyAll();
  }

  @Override
  public synchronized List<Long> nanos() {
    return List.copyOf(nanos);
  }

  @Override
  public synchronized boolean awaitIdle(long timeoutMs) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (inFlight > 0) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public List<Runnable> shutdownNow() {
    return delegate.shutdownNow();
  }

  @Override
  public boolean isShutdown() {
    return delegate.isShutdown();
  }

  @Override
  public boolean isTerminated() {
    return delegate.isTerminated();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return delegate.awaitTermination(timeout, unit);
  }
}
