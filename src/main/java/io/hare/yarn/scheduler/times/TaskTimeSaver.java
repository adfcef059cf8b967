package io.hare.yarn.scheduler.times;

import io.hare.core.profile.OnlineEstimator.Measured;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the scheduler's measured task times in a {@link TaskTimeStore} while the scheduler runs:
 * at start it loads what was saved and seeds the jobs that are still running (the RM recovered
 * them), on its own thread ({@link #loaded}), then saves a snapshot on its own daemon thread ({@code hare-task-times}) every interval
 * when something changed, and once more when the scheduler stops.
 *
 * <p>The snapshot is taken under the measured times' lock ({@link MeasuredTimes#changedSince})
 * and written without it or the scheduler's, so a slow file system never holds up scheduling.
 * Every write runs on the one thread, so two never race; a failed save is logged and tried again
 * at the next interval. The final save waits at most {@link #STOP_WAIT_MS}, so an RM going
 * standby is not held up by a file system that hangs.
 *
 * <p>With {@link TaskTimeStore#NONE} nothing runs: no thread, no load, no save.
 */
public final class TaskTimeSaver implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TaskTimeSaver.class);

  /** Longest the scheduler's stop waits for the final save. */
  static final long STOP_WAIT_MS = 10_000;

  private static final TaskTimeSaver OFF = new TaskTimeSaver(TaskTimeStore.NONE, null, null);

  static {
    OFF.loaded.complete(null); // nothing to load
  }

  private final TaskTimeStore store;
  private final MeasuredTimes times;
  private final ScheduledExecutorService thread;
  private long savedVersion = -1; // on the saver's thread only
  private boolean failing; // on the saver's thread only
  private final CompletableFuture<Void> loaded = new CompletableFuture<>();

  private TaskTimeSaver(TaskTimeStore store, MeasuredTimes times,
      ScheduledExecutorService thread) {
    this.store = store;
    this.times = times;
    this.thread = thread;
  }

  /**
   * Loads {@code store}, seeds {@code times} with the saved jobs that {@code running} accepts
   * (others ended while no RM ran: dropped), and saves every {@code intervalMs} from now on.
   */
  public static TaskTimeSaver start(TaskTimeStore store, MeasuredTimes times, long intervalMs,
      Predicate<String> running) {
    if (store == TaskTimeStore.NONE) {
      return OFF;
    }
    ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hare-task-times");
      t.setDaemon(true); // never keeps a stopping RM alive
      return t;
    });
    TaskTimeSaver saver = new TaskTimeSaver(store, times, thread);
    // the load runs first on the saver's thread: an RM becoming active never waits on the
    // store's file system (HDFS may be down or failing over), and no save replaces the file
    // before it was read. Jobs registered before it ends are seeded when it does.
    thread.execute(() -> saver.load(running, intervalMs));
    thread.scheduleWithFixedDelay(saver::saveIfChanged, intervalMs, intervalMs,
        TimeUnit.MILLISECONDS);
    return saver;
  }

  /** Completes once the saved times are loaded and the running jobs seeded (or the load failed). */
  public CompletableFuture<Void> loaded() {
    return loaded;
  }

  private void load(Predicate<String> running, long intervalMs) {
    try {
      Map<String, List<Measured>> saved = new LinkedHashMap<>(store.load());
      int loadedJobs = saved.size();
      saved.keySet().removeIf(running.negate());
      times.seed(saved);
      LOG.info("Task times saved every {} ms to {}; {} of {} saved job(s) still running",
          intervalMs, store, saved.size(), loadedJobs);
    } catch (RuntimeException e) {
      LOG.warn("Cannot seed the saved task times from {}: {}; running jobs start from their"
          + " profiles", store, e.toString());
    } finally {
      loaded.complete(null);
    }
  }

  /**
   * Which saved job ids name an application the RM knows and that has not ended: at scheduler
   * start, after the RM recovered its applications, those the scheduler is about to be given.
   */
  public static Predicate<String> unfinishedIn(RMContext context) {
    return id -> {
      try {
        RMApp app = context.getRMApps().get(ApplicationId.fromString(id));
        return app != null && !RMAppImpl.isAppInFinalState(app);
      } catch (IllegalArgumentException e) {
        return false; // not an application id: not one of ours
      }
    };
  }

  /** One save if the measured times changed since the last; never throws (the thread goes on). */
  void saveIfChanged() {
    try {
      MeasuredTimes.Snapshot s = times.changedSince(savedVersion);
      if (s == null) {
        return;
      }
      store.save(s.jobs());
      savedVersion = s.version();
      if (failing) {
        LOG.info("Task times saved to {} again", store);
        failing = false;
      }
    } catch (IOException | RuntimeException e) {
      if (!failing) { // once per outage, not at every interval
        LOG.warn("Cannot save task times to {}: {}; trying again every interval", store,
            e.toString());
        failing = true;
      } else {
        LOG.debug("Cannot save task times to {}", store, e);
      }
    }
  }

  /** The last save (if anything changed), bounded; then the store is closed. */
  @Override
  public void close() {
    if (thread == null || thread.isShutdown()) {
      return; // off, or closed already
    }
    thread.execute(this::saveIfChanged);
    thread.shutdown();
    try {
      if (!thread.awaitTermination(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
        LOG.warn("The last save of task times to {} did not end within {} ms; abandoned", store,
            STOP_WAIT_MS);
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
    try {
      store.close();
    } catch (Exception e) {
      LOG.debug("cannot close {}", store, e);
    }
  }
}
