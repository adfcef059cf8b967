package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.FreeGpuIndex;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Work-conserving, heterogeneity-aware dispatch by a priority order: list scheduling done at
 * run time, one round at a time, instead of ahead of time.
 *
 * <p>Jobs with ready tasks are visited by rank. A job places its ready tasks where its round ends
 * first (see {@link RoundPlacer}): on GPUs free now, or on busy GPUs of a faster type that free
 * soon enough, several tasks in a row on one fast GPU rather than one on a much slower type, and
 * only on the GPU types of its {@link #affinity() affinity} (from the relaxation, when set), or
 * with a finite {@code affinity-penalty} on other types too when a task there still ends first
 * with its time scaled by 1 + penalty.
 * Tasks placed on GPUs free now start now; the others wait, and the GPUs they wait for count as
 * taken for lower-ranked jobs in this call. Unlike following a list schedule laid out in advance
 * (the paper's executors, {@code dispatch=plan}), a GPU never idles for a task whose round is not
 * ready while another ready task could use it, and decisions follow what really happened.
 *
 * <p><b>Holds across the sync</b> (when on): a job between rounds, its last task computed and
 * its sync running, is ranked by its next round and visited with the ready ones; it places that
 * round as if ready when the sync is expected to end, and a free GPU it would take is held for
 * it until then instead of going to a lower-ranked job whose task would still run when the job
 * comes back: without holds, a job ranked first loses its fast GPU at every sync to a longer
 * task of a job ranked below, and waits for it. A lower-ranked task that ends before the hold
 * still runs there (backfilling, as EASY does for reservations). A hold lapses
 * {@code holdGraceMs} after the expected end, so a slow sync or a slow AM costs an idle GPU for
 * that long at most. A free GPU is held only while the sync still to run is short against the
 * job's task there ({@code holdMaxShare} of its compute): holding through a sync three times a
 * task's length idles the GPU longer than any lower-ranked task there would delay the job.
 *
 * <p>Jobs the starvation guard finds overdue ({@link WaitAging}) are served before the order,
 * without their affinity, so no stream of better-ranked jobs can hold a job back for ever.
 *
 * <p>Jobs are kept in an index sorted by rank, updated on events; a call stops as soon as no free
 * GPU is left, so it costs about what it hands out, not the number of active jobs.
 */
final class PriorityDispatcher {

  /** Jobs visited for backfilling once no GPU is free but some are held. */
  private static final int BACKFILL_SCAN = 64;

  private record Key(double rank, long arrivalMs, String id) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = Double.compare(rank, o.rank);
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
  private final TypeAffinity affinity = new TypeAffinity();
  private boolean contended;
  private final RoundPlacer placer;
  /** Slots reused by every call, by type index (see {@link TypeSlots#reset}). */
  private TypeSlots[] slotPool = new TypeSlots[0];
  private final HareTracker tracker;
  /** How long past its expected end a sync keeps its GPUs held; negative: no holds. */
  private final long holdGraceMs;
  private long holdLapsesMs = Long.MAX_VALUE;

  /**
   * Whether the last call left ready tasks waiting. When it did not, every ready round got its
   * GPUs at once and no order could have done better, so re-planning can wait.
   */
  boolean contended() {
    return contended;
  }

  /**
   * GPU types each job may use; a job without (or whose types expired) may use every type it can
   * run on. Set by the policy from the relaxation's type shares.
   */
  TypeAffinity affinity() {
    return affinity;
  }

  /**
   * @param holdGraceMs how long past its expected end a job's sync keeps the GPUs held for its
   *     next round; negative for no holds
   */
  PriorityDispatcher(RoundRanks ranks, HareTracker tracker, long holdGraceMs) {
    this(ranks, tracker, holdGraceMs, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
  }

  /**
   * @param holdMaxShare a free GPU is held only while the sync still to run is at most this
   *     share of the job's compute time on it ({@link RoundPlacer#hold})
   * @param affinityPenalty a task on a type outside its job's affinity compares as if it took
   *     (1 + this) times its time; infinite: such types are banned ({@link RoundPlacer})
   */
  PriorityDispatcher(RoundRanks ranks, HareTracker tracker, long holdGraceMs,
      double holdMaxShare, double affinityPenalty) {
    this.placer = new RoundPlacer(holdMaxShare, affinityPenalty);
    this.ranks = ranks;
    this.tracker = tracker;
    this.holdGraceMs = holdGraceMs;
  }

  /**
   * The job's readiness or rank may have changed (new round, re-plan, a round's last compute):
   * re-index it, by its current round when ready, by its next round when between rounds.
   */
  void refresh(JobView job) {
    remove(job.id());
    double rank;
    if (job.readyTasks() > 0) {
      rank = ranks.rank(job);
    } else if (holdGraceMs >= 0 && tracker.nextRound(job) >= 0) {
      rank = ranks.rank(job.id(), tracker.nextRound(job));
    } else {
      return;
    }
    Key k = new Key(rank, job.arrivalMs(), job.id());
    index.add(k);
    keys.put(job.id(), k);
  }

  /**
   * When the earliest hold of the last {@link #assign} lapses: the held GPUs must be offered
   * again then if nothing else happens; {@code Long.MAX_VALUE} if it held none.
   */
  long holdLapsesMs() {
    return holdLapsesMs;
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

  /** The offer grouped by type: from the index when the offer is every free GPU, else itself. */
  private static Map<GpuType, List<GpuView>> group(ClusterView cluster,
      List<? extends GpuView> offer, FreeGpuIndex index) {
    Map<GpuType, List<GpuView>> byType = new HashMap<>();
    index.ensureInitialised(cluster);
    if (offer.size() == index.total()) {
      for (GpuType t : cluster.gpuTypes()) {
        byType.put(t, index.of(t));
      }
    } else {
      for (GpuView g : offer) {
        byType.computeIfAbsent(g.type(), t -> new ArrayList<>()).add(g);
      }
    }
    return byType;
  }

  /**
   * Hands out the free GPUs: first to the {@code overdue} jobs in their order, on any type they
   * can run on (the starvation guard, {@link WaitAging}), then to the others by rank.
   */
  List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus, long nowMs,
      HareTracker tracker, FreeGpuIndex freeIndex, List<JobView> overdue) {
    if (freeGpus.isEmpty()) {
      return List.of();
    }
    if (slotPool.length < cluster.gpuTypes().size()) {
      slotPool = Arrays.copyOf(slotPool, cluster.gpuTypes().size());
    }
    affinity.purge(nowMs);
    DispatchCall call = new DispatchCall(cluster, group(cluster, freeGpus, freeIndex),
        freeGpus.size(), nowMs, tracker, slotPool);
    Set<String> served = overdue.isEmpty() ? Set.of() : new HashSet<>();
    for (JobView job : overdue) {
      if (call.free == 0) {
        break;
      }
      placer.place(call, job, null);
      served.add(job.id());
    }
    List<Key> stale = new ArrayList<>();
    int backfillScan = BACKFILL_SCAN;
    boolean waited = false;
    boolean visitedReady = false;
    Iterator<Key> it = index.iterator();
    while (it.hasNext() && (call.free > 0 || call.held > 0 && backfillScan-- > 0)) {
      Key key = it.next();
      JobView job = cluster.job(key.id());
      if (served.contains(key.id()) || job != null && job.leftOut()) {
        continue; // a job the host leaves out of this call takes nothing and holds nothing
      }
      if (job != null && job.readyTasks() > 0) {
        waited |= call.free == 0; // backfilling at most
        visitedReady = true;
        placer.place(call, job, affinity.allowed(job.id(), nowMs));
      } else if (job != null && holdGraceMs >= 0) {
        hold(call, job, nowMs, stale, key);
      } else {
        stale.add(key);
      }
    }
    // ready tasks left waiting: some chose busy GPUs, or GPUs ran out before a ready job
    contended = call.someWait || waited
        || call.free == 0 && (visitedReady || readyLeft(cluster, it));
    stale.forEach(k -> remove(k.id()));
    holdLapsesMs = call.holdLapsesMs;
    return call.out;
  }

  /** Whether a job the dispatch did not reach has ready tasks (the next few jobs looked at). */
  private static boolean readyLeft(ClusterView cluster, Iterator<Key> rest) {
    for (int i = 0; i < BACKFILL_SCAN && rest.hasNext(); i++) {
      JobView job = cluster.job(rest.next().id());
      if (job != null && job.readyTasks() > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Holds GPUs for a job between rounds, unless it is not between rounds or its hold has lapsed
   * (then it leaves the index).
   */
  private void hold(DispatchCall call, JobView job, long nowMs, List<Key> stale, Key key) {
    long readyMs = tracker.nextRoundAtMs(job); // -1 when not between rounds
    if (readyMs < 0 || nowMs > readyMs + holdGraceMs) {
      stale.add(key); // back in the index when its next round is ready (refresh)
      return;
    }
    if (call.free > 0 && placer.hold(call, job, job.tasksPerRound(), Math.max(nowMs, readyMs),
        affinity.allowed(job.id(), nowMs)) > 0) {
      call.holdLapsesMs = Math.min(call.holdLapsesMs, readyMs + holdGraceMs);
    }
  }

  /**
   * The job {@link #assign} would serve first on a GPU of {@code type}: the first overdue job
   * that can run there, else the best-ranked ready job whose affinity has the type (with a finite
   * affinity-penalty a job might also take a type outside it, when that still ends its round
   * first; the line does not guess that, so it may name a later job). Looks at most
   * {@code maxScan} ranked jobs; none found there reads as "another job", so a long queue of
   * jobs that cannot use the type never keeps a GPU warm by default.
   */
  Optional<String> firstInLine(ClusterView cluster, GpuType type, List<JobView> overdue,
      int maxScan, long nowMs) {
    List<String> line = line(cluster, type, overdue, maxScan, 1, nowMs);
    return line.isEmpty() ? Optional.empty() : Optional.of(line.get(0));
  }

  /**
   * The first {@code n} jobs {@link #assign} would serve on GPUs of {@code type}, in order (as
   * {@link #firstInLine}: overdue ones first, then by rank): each would be given such GPUs once
   * those before it have no ready task left. Ends with {@code ""} ("another job") where the
   * scan gave up after {@code maxScan} ready jobs that cannot use the type.
   */
  List<String> line(ClusterView cluster, GpuType type, List<JobView> overdue, int maxScan,
      int n, long nowMs) {
    List<String> out = new ArrayList<>(n);
    for (JobView job : overdue) {
      if (job.readyTasks() > 0 && job.times(type) != null) {
        out.add(job.id());
        if (out.size() == n) {
          return out;
        }
      }
    }
    int seen = 0;
    for (Key key : index) {
      JobView job = cluster.job(key.id());
      if (job == null || job.readyTasks() == 0 || out.contains(job.id())) {
        continue; // a job between rounds has no task to put on a warm GPU or a standby yet
      }
      Set<GpuType> allowed = affinity.allowed(job.id(), nowMs);
      if (job.times(type) != null && (allowed == null || allowed.contains(type))) {
        out.add(job.id());
        if (out.size() == n) {
          return out;
        }
      } else if (++seen >= maxScan) {
        out.add("");
        return out;
      }
    }
    return out;
  }
}
