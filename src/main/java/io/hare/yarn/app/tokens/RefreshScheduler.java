package io.hare.yarn.app.tokens;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a refresh later: the port through which {@link KeytabTokenRefresher} waits, so that tests
 * run its schedule by hand instead of sleeping.
 */
public interface RefreshScheduler extends AutoCloseable {

  /** Runs {@code task} once, {@code delayMs} from now, on the scheduler's thread. */
  void schedule(Runnable task, long delayMs);

  /** Runs nothing more; a task running may finish. */
  @Override
  void close();

  /**
   * One daemon thread named {@code name}: a refresh waiting for its time must not keep the AM's
   * JVM alive once the job is over.
   */
  static RefreshScheduler daemon(String name) {
    ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    pool.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    ScheduledExecutorService s = pool;
    return new RefreshScheduler() {
      @Override
      public void schedule(Runnable task, long delayMs) {
        try {
          s.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
          // closed: the AM is ending, and its tokens with it
        }
      }

      @Override
      public void close() {
        s.shutdownNow();
      }
    };
  }
}
