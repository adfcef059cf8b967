package io.hare.bench;

import io.hare.yarn.scheduler.HareScheduler;
import io.hare.yarn.scheduler.ReplanListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;

/**
 * The Hare scheduler, unchanged, with its heartbeat and allocate paths timed and its background
 * re-plans timed where they run ({@link TimedExecutor}). Re-plans keep running on their own
 * thread, as in the RM.
 */
public class TimedHareScheduler extends HareScheduler implements TimedScheduler {

  private final PathTimer timer = new PathTimer();
  private volatile TimedExecutor replans;
  private final List<Long> snapshots = new ArrayList<>();

  @Override
  public PathTimer timer() {
    return timer;
  }

  @Override
  public ReplanTimes replanTimes() {
    TimedExecutor r = replans;
    ReplanTimes solves = r == null ? ReplanTimes.NONE : r;
    return new ReplanTimes() {
      @Override
      public List<Long> nanos() {
        return solves.nanos();
      }

      @Override
      public List<Long> cpuNanos() {
        return solves.cpuNanos();
      }

      @Override
      public List<Long> snapshotNanos() {
        synchronized (snapshots) {
          return List.copyOf(snapshots);
        }
      }

      @Override
      public boolean awaitIdle(long timeoutMs) throws InterruptedException {
        return solves.awaitIdle(timeoutMs);
      }
    };
  }

  /** The metrics' listener, and each split re-plan's snapshot time recorded. */
  @Override
  protected ReplanListener replanListener(ReplanListener metrics) {
    return new ReplanListener() {
      @Override
      public void replanned(long nanos) {
        metrics.replanned(nanos);
      }

      @Override
      public void snapshotTaken(long nanos) {
        metrics.snapshotTaken(nanos);
        synchronized (snapshots) {
          snapshots.add(nanos);
        }
      }
    };
  }

  @Override
  protected Executor newReplanExecutor() {
    Executor inner = super.newReplanExecutor();
    if (!(inner instanceof ExecutorService service)) {
      throw new IllegalStateException("re-plan executor is not an ExecutorService: " + inner);
    }
    replans = new TimedExecutor(service);
    return replans;
  }

  @Override
  public void handle(SchedulerEvent event) {
    if (event.getType() != SchedulerEventType.NODE_UPDATE) {
      super.handle(event);
      return;
    }
    long passes = hareMetrics().passes();
    PathTimer.Start t0 = PathTimer.start();
    try {
      super.handle(event);
    } finally {
      timer.heartbeat(t0, () -> hareMetrics().passes() != passes);
    }
  }

  @Override
  public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
      List<SchedulingRequest> schedulingRequests, List<ContainerId> release,
      List<String> blacklistAdditions, List<String> blacklistRemovals,
      ContainerUpdates updateRequests) {
    PathTimer.Start t0 = PathTimer.start();
    try {
      return super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions,
          blacklistRemovals, updateRequests);
    } finally {
      timer.allocate(t0);
    }
  }
}
