package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.plan.PlanJob;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the hare policy remembers between events so it can snapshot the cluster for planning:
 * when each busy GPU is expected to free, and when each job's running round is expected to end.
 * Estimates come from the task-time model at task start and are corrected when compute ends.
 */
final class HareTracker {

  private record Running(String jobId, io.hare.core.GpuType type, long expectedEndMs,
      long computeMs) {

    /** When the task counts as late: {@code share} of its compute time past its expected end. */
    long lateAtMs(double share) {
      return expectedEndMs + Math.max(1, Math.round(share * computeMs));
    }
  }

  private final Map<String, Running> byGpu = new HashMap<>();
  /** Expected compute ends of running tasks per type, as a multiset (end -> count). */
  private final Map<GpuType, java.util.TreeMap<Long, Integer>> busyEnds = new HashMap<>();
  /** The GPUs' types and ids as the last snapshot read them, while the cluster's GPUs stay. */
  private GpuArrays gpuArrays;

  /**
   * The parts of a snapshot that change only with the cluster's GPUs: each GPU's type index and
   * id, in the cluster's order. A re-plan at 80,000 GPUs spent a hash lookup of every GPU's type
   * on them; snapshots share the arrays, which no planner writes.
   */
  private record GpuArrays(long version, List<? extends GpuView> gpus, List<GpuType> types,
      int[] type, String[] ids) {

    GpuArrays(long version, List<? extends GpuView> gpus, List<GpuType> types) {
      this(version, gpus, List.copyOf(types), new int[gpus.size()], new String[gpus.size()]);
      Map<GpuType, Integer> typeIndex = new HashMap<>();
      for (int i = 0; i < types.size(); i++) {
        typeIndex.put(types.get(i), i);
      }
      GpuType last = null; // the GPUs of a node come together and share their type
      int index = -1;
      for (int i = 0; i < gpus.size(); i++) {
        GpuType t = gpus.get(i).type();
        if (t != last) {
          index = typeIndex.get(t);
          last = t;
        }
        type[i] = index;
        ids[i] = gpus.get(i).id();
      }
    }

    /** Whether these are the arrays of that list of GPUs: the same list, version and types. */
    boolean describe(ClusterView cluster, List<? extends GpuView> list, List<GpuType> now) {
      return list == gpus && cluster.gpusVersion() == version && list.size() == ids.length
          && now.equals(types);
    }
  }

  /**
   * Per job, what its current round is and when it is expected to end: one entry, so a dispatch
   * asking when a job between rounds is ready (every such job, at every pass) looks up once.
   */
  private final Map<String, JobRound> rounds = new HashMap<>();
  /**
   * Whether a round's expected end is corrected to what happened once its last task computed
   * ({@link JobRound}); else it stays the latest estimate made at its tasks' starts. Exact plans
   * need the correction (a plan from a stale end idles GPUs for nothing); for the rest it is
   * off, which keeps the holds of recorded runs as they were decided.
   */
  private final boolean correctRoundEnds;

  HareTracker() {
    this(false);
  }

  HareTracker(boolean correctRoundEnds) {
    this.correctRoundEnds = correctRoundEnds;
  }

  private static final class JobRound {
    /**
     * The round its running or syncing tasks belong to, read at the round's first start, when
     * {@link JobView#roundsDone()} is that round; -1 if none.
     */
    int round = -1;
    /**
     * Expected end (compute + sync) of its current round: the latest of its tasks' estimates
     * made at their starts; with {@link #correctRoundEnds}, once none computes, the latest
     * computed task's actual compute end plus its sync, so a round that ran faster or slower
     * than estimated is seen so.
     */
    long endMs;
    boolean hasEnd;
    /** Tasks of the round computing now, and the latest actual compute end plus sync. */
    int computing;
    long computedEndMs = Long.MIN_VALUE;

    void end(long ms) {
      endMs = hasEnd ? Math.max(endMs, ms) : ms;
      hasEnd = true;
    }

    void started(long expectedEndMs) {
      computing++;
      end(expectedEndMs);
    }

    void computed(long syncEndMs, boolean correct) {
      computedEndMs = Math.max(computedEndMs, syncEndMs);
      if (computing > 0 && --computing == 0 && correct) {
        endMs = computedEndMs;
        hasEnd = true;
      } else {
        end(syncEndMs);
      }
    }
  }

  void started(JobView job, GpuView gpu, long nowMs) {
    TaskTimes t = job.times(gpu.type());
    long compute = t == null ? 0 : Math.round(t.computeMs());
    long sync = t == null ? 0 : Math.round(t.syncMs());
    Running old = byGpu.put(gpu.id(), new Running(job.id(), gpu.type(), nowMs + compute,
        compute));
    if (old != null) {
      unbusy(old);
    }
    busyEnds.computeIfAbsent(gpu.type(), x -> new java.util.TreeMap<>())
        .merge(nowMs + compute, 1, Integer::sum);
    JobRound r = rounds.computeIfAbsent(job.id(), x -> new JobRound());
    r.started(nowMs + compute + sync);
    if (r.round < 0) {
      r.round = job.roundsDone();
    }
  }

  private void unbusy(Running r) {
    java.util.TreeMap<Long, Integer> m = busyEnds.get(r.type());
    m.computeIfPresent(r.expectedEndMs(), (k, v) -> v == 1 ? null : v - 1);
  }

  /**
   * Whether a running task has gone {@code share} of its compute time past its expected end (one
   * whose node went silent never ends while the RM waits). O(running tasks): for small clusters.
   */
  boolean late(long nowMs, double share) {
    for (Running r : byGpu.values()) {
      if (nowMs >= r.lateAtMs(share)) {
        return true;
      }
    }
    return false;
  }

  /** When the first running task turns {@link #late}; Long.MAX_VALUE when none runs. */
  long nextLateMs(double share) {
    long next = Long.MAX_VALUE;
    for (Running r : byGpu.values()) {
      next = Math.min(next, r.lateAtMs(share));
    }
    return next;
  }

  /** A task computed; returns when it was expected to, or -1 if its start was not seen. */
  long computed(JobView job, GpuView gpu, long nowMs) {
    Running r = byGpu.remove(gpu.id());
    if (r != null) {
      unbusy(r);
    }
    TaskTimes t = job.times(gpu.type());
    long sync = t == null ? 0 : Math.round(t.syncMs());
    rounds.computeIfAbsent(job.id(), x -> new JobRound()).computed(nowMs + sync,
        correctRoundEnds);
    return r == null ? -1 : r.expectedEndMs();
  }

  void failed(GpuView gpu) {
    Running r = byGpu.remove(gpu.id());
    if (r != null) {
      unbusy(r);
      JobRound jr = rounds.get(r.jobId());
      if (jr != null && jr.computing > 0) {
        jr.computing--; // its estimate stays until the round's last task computes
      }
    }
  }

  /** Expected compute ends of the busy GPUs of a type, ascending, as end -> count; may be null. */
  java.util.NavigableMap<Long, Integer> busyEnds(GpuType type) {
    return busyEnds.get(type);
  }

  void roundDone(JobView job) {
    rounds.remove(job.id());
  }

  void jobDone(JobView job) {
    rounds.remove(job.id());
  }

  /**
   * The round whose ready time {@link #nextRoundAtMs} gives: the one after the job's syncing
   * round; -1 when the job is not between two rounds.
   */
  int nextRound(JobView job) {
    return nextRound(job, rounds.get(job.id()));
  }

  private static int nextRound(JobView job, JobRound r) {
    if (r == null || r.round < 0 || job.readyTasks() > 0 || job.runningTasks() > 0) {
      return -1;
    }
    return job.rounds().isPresent() && r.round + 1 >= job.rounds().getAsInt() ? -1 : r.round + 1;
  }

  /**
   * When the job's next round is expected to be ready: its syncing round's expected end (the
   * last compute end plus the sync estimate); -1 when the job is not between two rounds (it has
   * ready or running tasks, has not started a round, or syncs its last declared round).
   */
  long nextRoundAtMs(JobView job) {
    JobRound r = rounds.get(job.id());
    return nextRound(job, r) < 0 || !r.hasEnd ? -1 : r.endMs;
  }

  /**
   * The planning snapshot. Jobs without a declared number of rounds are planned as if they had as
   * many rounds left as they have done (at least one): the usual guess under no knowledge, which
   * the next re-plans correct as the job goes on.
   */
  PlanningProblem snapshot(ClusterView cluster, long nowMs) {
    List<GpuType> types = cluster.gpuTypes();
    List<? extends GpuView> gpus = cluster.gpus();
    GpuArrays a = gpuArrays;
    if (a == null || !a.describe(cluster, gpus, types)) {
      a = new GpuArrays(cluster.gpusVersion(), gpus, types);
      gpuArrays = a;
    }
    int[] gpuType = a.type();
    String[] ids = a.ids();
    long[] free = new long[gpus.size()];
    for (int i = 0; i < free.length; i++) {
      Running r;
      // a task running past its estimate is assumed to end just now, not in the past
      free[i] = !gpus.get(i).busy() || (r = byGpu.get(ids[i])) == null ? nowMs
          : Math.max(nowMs + 1, r.expectedEndMs());
    }
    boolean[] present = new boolean[types.size()];
    for (int t : gpuType) {
      present[t] = true;
    }
    List<PlanJob> jobs = new ArrayList<>();
    for (JobView j : cluster.jobs()) {
      TaskTimes[] times = new TaskTimes[types.size()];
      boolean runnable = false;
      for (int i = 0; i < types.size(); i++) {
        times[i] = j.times(types.get(i));
        runnable |= times[i] != null && present[i];
      }
      if (!runnable) {
        continue; // no GPU it can use: nothing to plan (and nothing the host can place)
      }
      int after = roundsAfter(j);
      JobRound r = this.rounds.get(j.id());
      long end = Math.max(nowMs, r == null || !r.hasEnd ? nowMs : r.endMs);
      // an AM may ask ahead of its declared round (k): the plan counts at most a round now, and
      // the rest of its asks as the rounds it declared
      int ready = Math.min(j.readyTasks(), j.tasksPerRound());
      long release = ready > 0 ? nowMs : end;
      jobs.add(new PlanJob(j.id(), j.weight(), j.arrivalMs(), release, j.tasksPerRound(),
          j.roundsDone(), ready, after, times, end));
    }
    return new PlanningProblem(nowMs, types, gpuType, free, ids, jobs);
  }

  /** Whole rounds the snapshot plans after the job's current one. */
  private static int roundsAfter(JobView j) {
    int rounds = j.rounds().orElse(Math.max(2 * j.roundsDone(), j.roundsDone() + 1));
    return Math.max(0, rounds - j.roundsDone() - 1);
  }

  /** The tasks a snapshot would plan for the job: at most a round now, then the rounds after. */
  static long unstartedTasks(JobView j) {
    return Math.min(j.readyTasks(), j.tasksPerRound())
        + (long) roundsAfter(j) * j.tasksPerRound();
  }

  /** Job last run (or running) on each GPU, in the cluster's GPU order. */
  static String[] lastJobs(ClusterView cluster) {
    List<? extends GpuView> gpus = cluster.gpus();
    String[] last = new String[gpus.size()];
    for (int i = 0; i < last.length; i++) {
      last[i] = gpus.get(i).lastJobId();
    }
    return last;
  }
}
