package io.hare.core.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The {@code hare} policy's starvation guard ({@code yarn.scheduler.hare.hare.max-wait-ms}):
 * for each job with ready tasks, since when it has waited without a task start. A job whose
 * wait reaches {@code maxWaitMs} is <em>overdue</em>: dispatch serves it before the Smith order,
 * on any GPU type it can run on, overdue jobs oldest wait first. The clock starts when the job
 * gets ready tasks (arrival, round barrier, a failed task) and restarts at each of its task
 * starts; it stops when the job has no ready task left.
 *
 * <p>The bound this gives: a job with ready tasks starts a task at most {@code maxWaitMs} plus
 * the time until a GPU of a type it can run on frees up after it became overdue, behind only the
 * jobs that were overdue before it; with no other overdue job, that is at most the longest task
 * running on such a GPU (tasks are never preempted), or the job's own compute time on the
 * slowest free type when it waits for a faster one. A waiting time measured from task starts
 * rather than from the round keeps the bound one of progress: while it has ready tasks, a job
 * starts one at least every {@code maxWaitMs} + that time.
 *
 * <p>Not thread-safe; O(log jobs) per event, O(overdue jobs) per offer.
 */
final class WaitAging {

  private record Entry(long sinceMs, String id) implements Comparable<Entry> {
    @Override
    public int compareTo(Entry o) {
      int c = Long.compare(sinceMs, o.sinceMs);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  private final long maxWaitMs;
  private final Map<String, Entry> byJob = new HashMap<>();
  private final TreeSet<Entry> waiting = new TreeSet<>();
  private long lastNowMs = Long.MIN_VALUE;

  /** @param maxWaitMs the wait after which a job goes first; 0 turns the guard off */
  WaitAging(long maxWaitMs) {
    this.maxWaitMs = maxWaitMs;
  }

  boolean enabled() {
    return maxWaitMs > 0;
  }

  /** The job's readiness may have changed: starts its clock if it has ready tasks. */
  void ready(JobView job, long nowMs) {
    if (!enabled()) {
      return;
    }
    if (job.readyTasks() <= 0) {
      remove(job.id());
    } else if (!byJob.containsKey(job.id())) {
      put(job.id(), nowMs);
    }
  }

  /** One of the job's tasks started: its clock restarts if it still has ready tasks. */
  void started(JobView job, long nowMs) {
    if (!enabled()) {
      return;
    }
    remove(job.id());
    if (job.readyTasks() > 0) {
      put(job.id(), nowMs);
    }
  }

  void remove(String jobId) {
    Entry e = byJob.remove(jobId);
    if (e != null) {
      waiting.remove(e);
    }
  }

  /** Jobs of {@code cluster} overdue at {@code nowMs} with ready tasks, oldest wait first. */
  List<JobView> overdue(ClusterView cluster, long nowMs) {
    lastNowMs = Math.max(lastNowMs, nowMs);
    if (!enabled() || waiting.isEmpty() || waiting.first().sinceMs() > nowMs - maxWaitMs) {
      return List.of();
    }
    List<JobView> out = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    for (Entry e : waiting.headSet(new Entry(nowMs - maxWaitMs, "\uffff"), true)) {
      JobView j = cluster.job(e.id());
      if (j == null || j.readyTasks() <= 0) {
        gone.add(e.id()); // the host withdrew its tasks without telling us
      } else {
        out.add(j);
      }
    }
    gone.forEach(this::remove);
    return out;
  }

  /**
   * When the next waiting job becomes overdue, after the last offer; empty if none will. An
   * offer then lets it take a free GPU its affinity kept it from.
   */
  OptionalLong nextDueMs() {
    if (!enabled() || waiting.isEmpty()) {
      return OptionalLong.empty();
    }
    Entry next = lastNowMs == Long.MIN_VALUE ? waiting.first()
        : waiting.higher(new Entry(lastNowMs - maxWaitMs, "\uffff"));
    return next == null ? OptionalLong.empty() : OptionalLong.of(next.sinceMs() + maxWaitMs);
  }

  private void put(String id, long sinceMs) {
    Entry e = new Entry(sinceMs, id);
    byJob.put(id, e);
    waiting.add(e);
  }
}
