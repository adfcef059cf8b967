package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
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
 * <p><b>Relative to the job's size</b> ({@code max-wait-size-share} S &gt; 0): a job whose rounds
 * are known waits at most S x its critical path (rounds x its fastest compute + sync) instead of
 * {@code maxWaitMs}, so the guard means the same for a job of minutes as for one of days; a job
 * of unknown size, or one that readies before the cluster's types are known, keeps
 * {@code maxWaitMs}. Overdue jobs go in the order their limits ran out.
 *
 * <p>Not thread-safe; O(log jobs) per event, O(overdue jobs) per offer.
 */
final class WaitAging {

  /** A waiting job, when its wait reaches its limit, and since when it waits. */
  private record Entry(long dueMs, String id, long sinceMs) implements Comparable<Entry> {
    Entry(long dueMs, String id) {
      this(dueMs, id, 0);
    }

    @Override
    public int compareTo(Entry o) {
      int c = Long.compare(dueMs, o.dueMs);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  private final long maxWaitMs;
  private final double sizeShare;
  private List<GpuType> types = List.of();
  private final Map<String, Entry> byJob = new HashMap<>();
  private final TreeSet<Entry> waiting = new TreeSet<>();
  private long lastNowMs = Long.MIN_VALUE;

  /** @param maxWaitMs the wait after which a job goes first; 0 turns the guard off */
  WaitAging(long maxWaitMs) {
    this(maxWaitMs, 0);
  }

  /**
   * @param maxWaitMs the wait after which a job goes first; 0 turns the guard off
   * @param sizeShare when &gt; 0, a job of known size waits at most this x its critical path
   */
  WaitAging(long maxWaitMs, double sizeShare) {
    this.maxWaitMs = maxWaitMs;
    this.sizeShare = sizeShare;
  }

  /**
   * The cluster's GPU types, for the jobs' critical paths: when they change (first known, or a
   * type came or went), every waiting job's limit is worked out again from its wait's start.
   */
  void types(ClusterView cluster) {
    if (sizeShare <= 0 || cluster.gpuTypes().equals(types)) {
      return;
    }
    types = List.copyOf(cluster.gpuTypes());
    for (Entry e : new ArrayList<>(waiting)) {
      JobView j = cluster.job(e.id());
      if (j != null) {
        remove(e.id());
        put(e.id(), e.sinceMs(), e.sinceMs() + limitMs(j));
      }
    }
  }

  /** How long this job may wait: relative to its size when it can be, else maxWaitMs. */
  long limitMs(JobView job) {
    if (sizeShare <= 0 || job.rounds().isEmpty()) {
      return maxWaitMs;
    }
    double round = Double.POSITIVE_INFINITY;
    for (GpuType t : types) {
      TaskTimes tt = job.times(t);
      if (tt != null) {
        round = Math.min(round, tt.computeMs() + tt.syncMs());
      }
    }
    if (round == Double.POSITIVE_INFINITY) {
      return maxWaitMs;
    }
    return Math.max(1, Math.round(Math.min(sizeShare * job.rounds().getAsInt() * round,
        Long.MAX_VALUE / 4.0)));
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
      put(job.id(), nowMs, nowMs + limitMs(job));
    }
  }

  /** One of the job's tasks started: its clock restarts if it still has ready tasks. */
  void started(JobView job, long nowMs) {
    if (!enabled()) {
      return;
    }
    remove(job.id());
    if (job.readyTasks() > 0) {
      put(job.id(), nowMs, nowMs + limitMs(job));
    }
  }

  void remove(String jobId) {
    Entry e = byJob.remove(jobId);
    if (e != null) {
      waiting.remove(e);
    }
  }

  /**
   * Jobs of {@code cluster} overdue at {@code nowMs} with ready tasks, the longest overdue first
   * (oldest wait first when every job has the same limit).
   */
  List<JobView> overdue(ClusterView cluster, long nowMs) {
    lastNowMs = Math.max(lastNowMs, nowMs);
    if (!enabled() || waiting.isEmpty() || waiting.first().dueMs() > nowMs) {
      return List.of();
    }
    List<JobView> out = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    for (Entry e : waiting.headSet(new Entry(nowMs, "\uffff"), true)) {
      JobView j = cluster.job(e.id());
      if (j != null && j.leftOut()) {
        continue; // kept from this call by a queue gate: still waiting, its clock runs on
      }
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
        : waiting.higher(new Entry(lastNowMs, "\uffff"));
    return next == null ? OptionalLong.empty() : OptionalLong.of(next.dueMs());
  }

  private void put(String id, long sinceMs, long dueMs) {
    Entry e = new Entry(dueMs, id, sinceMs);
    byJob.put(id, e);
    waiting.add(e);
  }
}
