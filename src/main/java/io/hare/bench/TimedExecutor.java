package io.hare.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Wraps the Hare scheduler's re-plan executor (its {@code hare-replan} thread) to time each
 * re-plan where it runs and to let the bench wait, between ticks, until none is in flight. A
 * re-plan task takes the policy lock, solves and releases it, so its run time is the re-plan's
 * time (plus a lock wait of at most one scheduler callback). Wall time and the thread's CPU time
 * are both kept: on a machine with fewer cores than busy threads (the bench's 2 cores run the
 * heartbeats, the bench driver and the re-plan) wall time includes waiting for a core.
 */
final class TimedExecutor extends AbstractExecutorService implements ReplanTimes {

  private final ExecutorService delegate;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final List<Long> nanos = new ArrayList<>();
  private final List<Long> cpuNanos = new ArrayList<>();
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
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        try {
          task.run();
        } finally {
          long wall = System.nanoTime() - t0;
          finished(wall, THREADS.getCurrentThreadCpuTime() - c0);
        }
      });
    } catch (RuntimeException e) {
      finished(-1, -1);
      throw e;
    }
  }

  private synchronized void finished(long wall, long cpu) {
    if (wall >= 0) {
      nanos.add(wall);
      cpuNanos.add(cpu);
    }
    inFlight--;
    notifyAll();
  }

  @Override
  public synchronized List<Long> nanos() {
    return List.copyOf(nanos);
  }

  @Override
  public synchronized List<Long> cpuNanos() {
    return List.copyOf(cpuNanos);
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
