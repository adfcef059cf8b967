package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeSet;

/**
 * Work-conserving, heterogeneity-aware dispatch by a priority order: list scheduling done at
 * run time instead of ahead of time.
 *
 * <p>Jobs with ready tasks are visited by rank (the position of their current round in the
 * relaxation order). Each ready task goes to the free GPU type on which it would finish compute
 * and sync first, unless a busy GPU of another type is expected to free soon enough that the task
 * would finish earlier there; then the task waits for that GPU, which lower-ranked jobs may no
 * longer count on. This is the earliest-finish rule of {@link io.hare.core.plan.ListScheduler}
 * with a look-ahead of one task per GPU; unlike a list schedule laid out in advance, it never
 * leaves a GPU idle for a task whose round is not ready while another ready task could use it,
 * and it follows what really happens rather than estimates.
 *
 * <p>Jobs with ready tasks are kept in an index sorted by rank, updated on events, so a call
 * visits at most one job per GPU it hands out or holds back, not every active job.
 */
final class PriorityDispatcher {

  private record Key(int rank, long arrivalMs, String id) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = Integer.compare(rank, o.rank);
      if (c != 0) {
        return c;
      }
      c = Long.compare(arrivalMs, o.arrivalMs);
      return c != 0 ? c : id.compareTo(o.id);
    }
  }

  private final RoundRanks ranks;
  private final TreeSet<Key> index = new TreeSet<>();
  private final Map<String, Key> keys = new HashMap<>();

  PriorityDispatcher(RoundRanks ranks) {
    this.ranks = ranks;
  }

  /** The job's readiness or rank may have changed: re-index it. */
  void refresh(JobView job) {
    remove(job.id());
    if (job.readyTasks() > 0) {
      Key k = new Key(ranks.rank(job), job.arrivalMs(), job.id());
      index.add(k);
      keys.put(job.id(), k);
    }
  }

  void remove(String jobId) {
    Key k = keys.remove(jobId);
    if (k != null) {
      index.remove(k);
    }
  }

  /** After a re-plan every rank changed. */
  void rebuild(ClusterView cluster) {
    index.clear();
    keys.clear();
    for (JobView j : cluster.jobs()) {
      refresh(j);
    }
  }

  List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus, long nowMs,
      HareTracker tracker) {
    List<Assignment> out = new ArrayList<>();
    Map<GpuType, List<GpuView>> free = new HashMap<>();
    for (GpuView g : freeGpus) {
      free.computeIfAbsent(g.type(), t -> new ArrayList<>()).add(g);
    }
    int freeLeft = freeGpus.size();
    Map<GpuType, BusyCursor> busy = new HashMap<>();
    List<Key> stale = new ArrayList<>();
    for (Iterator<Key> it = index.iterator(); it.hasNext() && freeLeft > 0; ) {
      Key key = it.next();
      JobView job = cluster.job(key.id());
      if (job == null || job.readyTasks() == 0) {
        stale.add(key);
        continue;
      }
      for (int tasks = job.readyTasks(); tasks > 0 && freeLeft > 0; tasks--) {
        GpuType bestFree = null;
        double freeFinish = Double.POSITIVE_INFINITY;
        GpuType bestWait = null;
        double waitFinish = Double.POSITIVE_INFINITY;
        for (GpuType t : cluster.gpuTypes()) {
          TaskTimes tt = job.times(t);
          if (tt == null) {
            continue;
          }
          List<GpuView> f = free.get(t);
          if (f != null && !f.isEmpty() && nowMs + tt.roundMs() < freeFinish) {
            freeFinish = nowMs + tt.roundMs();
            bestFree = t;
          }
          long next = busy.computeIfAbsent(t, x -> new BusyCursor(tracker.busyEnds(x), nowMs))
              .peek();
          if (next != Long.MAX_VALUE && next + tt.roundMs() < waitFinish) {
            waitFinish = next + tt.roundMs();
            bestWait = t;
          }
        }
        if (bestFree != null && freeFinish <= waitFinish) {
          List<GpuView> f = free.get(bestFree);
          out.add(new Assignment(f.remove(f.size() - 1).id(), job.id()));
          freeLeft--;
        } else if (bestWait != null) {
          busy.get(bestWait).claim(); // this task waits for that GPU
        } else {
          break;
        }
      }
    }
    stale.forEach(k -> remove(k.id()));
    return out;
  }

  /** Walks the expected free times of a type's busy GPUs, earliest first, claiming them. */
  private static final class BusyCursor {
    private final Iterator<Map.Entry<Long, Integer>> it;
    private final long nowMs;
    private long end = Long.MAX_VALUE;
    private int left;

    BusyCursor(NavigableMap<Long, Integer> ends, long nowMs) {
      this.it = ends == null ? java.util.Collections.emptyIterator() : ends.entrySet().iterator();
      this.nowMs = nowMs;
      advance();
    }

    private void advance() {
      if (it.hasNext()) {
        Map.Entry<Long, Integer> e = it.next();
        end = Math.max(nowMs + 1, e.getKey()); // overdue tasks end "now"
        left = e.getValue();
      } else {
        end = Long.MAX_VALUE;
        left = 0;
      }
    }

    long peek() {
      return end;
    }

    void claim() {
      if (--left == 0) {
        advance();
      }
    }
  }
}
