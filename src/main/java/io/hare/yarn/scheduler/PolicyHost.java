package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts a {@link SchedulingPolicy} in the ResourceManager as {@code io.hare.sim.Simulator} hosts
 * it in simulation: it keeps the {@link ClusterView} (GPUs from the {@link GpuInventory}, jobs as
 * {@link YarnJob}s), turns YARN facts into the policy's callbacks, and runs a <em>pass</em>:
 * re-plan if the policy asks and the re-plan interval has passed, then offer every free GPU of
 * the cluster to {@link SchedulingPolicy#assign} and check each answer against the rules.
 *
 * <p><b>Callbacks.</b> A job arrives when it first has outstanding GPU asks. A GPU container
 * allocated is a task started; one that ends with exit status 0 is a task computed (its run
 * time refines the job's estimate), any other end (failure, kill, release, lost node) a task
 * failed. When a job's asks grow after its finished tasks completed a round, its round barrier
 * cleared ({@code onRoundDone}). Asks that grow otherwise (a task asked again after a failure)
 * are announced as {@code onTasksReady}. A job ends when its application is removed.
 *
 * <p><b>Rules.</b> An answer that breaks the policy contract (a GPU not offered or given twice,
 * a job without a ready task, a type the job cannot run on) is a policy bug; inside the RM it is
 * logged and skipped rather than thrown, so one bad decision never takes the RM down.
 *
 * <p>Not thread-safe: the scheduler calls it under its lock, so the policy sees one thread.
 */
final class PolicyHost implements ClusterView {

  private static final Logger LOG = LoggerFactory.getLogger(PolicyHost.class);

  private static final Comparator<YarnJob> ARRIVAL = Comparator
      .comparingLong(YarnJob::arrivalMs).thenComparing(YarnJob::appId);

  private final SchedulingPolicy policy;
  private final GpuInventory inventory;
  private final TaskTimeSource times;
  private final long replanIntervalMs;

  private final Map<String, YarnJob> active = new HashMap<>();
  private final TreeMap<YarnJob, YarnJob> ordered = new TreeMap<>(ARRIVAL);
  private List<YarnJob> jobList = List.of();
  private boolean jobsChanged;
  private long readyTotal;
  private boolean dirty = true;
  private long lastReplanMs = Long.MIN_VALUE;
  private long countsStamp = -1;
  private Map<GpuType, int[]> counts = Map.of();
  private List<GpuType> types = List.of();
  private long replans;

  PolicyHost(SchedulingPolicy policy, GpuInventory inventory, TaskTimeSource times,
      long replanIntervalMs) {
    this.policy = policy;
    this.inventory = inventory;
    this.times = times;
    this.replanIntervalMs = replanIntervalMs;
  }

  SchedulingPolicy policy() {
    return policy;
  }

  long replans() {
    return replans;
  }

  /** Something changed that may let the policy place more (GPUs, nodes, asks). */
  void markDirty() {
    dirty = true;
  }

  /** The job's outstanding one-GPU asks are now {@code outstanding}. */
  void asksChanged(YarnJob job, int outstanding, long nowMs) {
    int before = job.ready;
    int grew = job.setReady(outstanding);
    if (!job.announced) {
      if (outstanding > 0) {
        job.announced = true;
        job.roundsNotified = job.roundsDone();
        active.put(job.id(), job);
        ordered.put(job, job);
        jobsChanged = true;
        readyTotal += outstanding;
        dirty = true;
        policy.onJobArrived(job, nowMs);
      }
      return;
    }
    readyTotal += outstanding - before;
    if (grew > 0) {
      dirty = true;
      if (job.roundsDone() > job.roundsNotified) {
        job.roundsNotified = job.roundsDone();
        policy.onRoundDone(job, nowMs);
      } else {
        policy.onTasksReady(job, nowMs);
      }
    }
  }

  void taskStarted(YarnJob job, YarnGpu gpu, long nowMs) {
    inventory.start(gpu, job.id());
    job.ready--;
    job.running++;
    if (job.announced) {
      readyTotal--;
    }
    policy.onTaskStarted(job, gpu, nowMs);
  }

  /** A GPU container of {@code job} ended; {@code ok} when it exited with status 0. */
  void taskEnded(YarnJob job, YarnGpu gpu, long nowMs, boolean ok, long runMs) {
    inventory.release(gpu);
    job.running--;
    dirty = true;
    if (ok) {
      job.tasksDone++;
      times.observe(job.id(), gpu.type(), runMs);
      policy.onTaskComputed(job, gpu, nowMs, runMs);
    } else {
      policy.onTaskFailed(job, gpu, nowMs);
    }
  }

  void jobDone(YarnJob job, long nowMs) {
    if (active.remove(job.id()) != null) {
      ordered.remove(job);
      jobsChanged = true;
      readyTotal -= job.ready;
      dirty = true;
      policy.onJobDone(job, nowMs);
    }
  }

  /** Whether a pass could place anything or the policy wants time now; cheap. */
  boolean passDue(long nowMs) {
    if (dirty) {
      return true;
    }
    OptionalLong wake = policy.wakeUpAtMs();
    return wake.isPresent() && wake.getAsLong() <= nowMs && readyTotal > 0;
  }

  /**
   * Re-plans if due, then offers every free GPU; returns the valid assignments, which the caller
   * turns into containers and reports back through {@link #taskStarted}.
   */
  List<Assignment> pass(long nowMs) {
    dirty = false;
    List<YarnGpu> free = inventory.free();
    if ((lastReplanMs == Long.MIN_VALUE || nowMs - lastReplanMs >= replanIntervalMs)
        && policy.replanDue(nowMs)) {
      long t0 = System.nanoTime();
      policy.replan(this, nowMs);
      lastReplanMs = nowMs;
      replans++;
      LOG.debug("{} re-planned in {} us", policy.name(), (System.nanoTime() - t0) / 1000);
    }
    if (readyTotal <= 0 || free.isEmpty()) {
      return List.of();
    }
    List<Assignment> answer = policy.assign(this, Collections.unmodifiableList(free), nowMs);
    return check(answer, free, nowMs);
  }

  private List<Assignment> check(List<Assignment> answer, List<YarnGpu> free, long nowMs) {
    if (answer == null) {
      LOG.error("{}: assign returned null at {} ms; nothing placed", policy.name(), nowMs);
      return List.of();
    }
    Set<String> offered = new HashSet<>();
    free.forEach(g -> offered.add(g.id()));
    Map<String, Integer> given = new HashMap<>();
    List<Assignment> ok = new ArrayList<>(answer.size());
    for (Assignment a : answer) {
      YarnJob job = active.get(a.jobId());
      YarnGpu gpu = inventory.gpu(a.gpuId());
      String bad = null;
      if (!offered.remove(a.gpuId()) || gpu == null) {
        bad = "GPU " + a.gpuId() + " was not offered or is given twice";
      } else if (job == null) {
        bad = "job " + a.jobId() + " is not active";
      } else if (given.merge(job.id(), 1, Integer::sum) > job.ready) {
        bad = "job " + a.jobId() + " has no ready task left";
      } else if (job.times(gpu.type()) == null) {
        bad = "job " + a.jobId() + " (model " + job.model() + ") cannot run on " + gpu.type();
      }
      if (bad != null) {
        LOG.error("{} broke the policy contract at {} ms: {}; decision skipped", policy.name(),
            nowMs, bad);
      } else {
        ok.add(a);
      }
    }
    return ok;
  }

  YarnJob activeJob(String id) {
    return active.get(id);
  }

  // --- ClusterView ---

  @Override
  public List<? extends JobView> jobs() {
    if (jobsChanged) {
      jobList = List.copyOf(ordered.keySet());
      jobsChanged = false;
    }
    return jobList;
  }

  @Override
  public JobView job(String id) {
    return active.get(id);
  }

  @Override
  public List<? extends GpuView> gpus() {
    return inventory.gpus();
  }

  @Override
  public List<GpuType> gpuTypes() {
    refreshCounts();
    return types;
  }

  @Override
  public int gpuCount(GpuType type) {
    refreshCounts();
    int[] c = counts.get(type);
    return c == null ? 0 : c[0];
  }

  @Override
  public int freeGpuCount(GpuType type) {
    refreshCounts();
    int[] c = counts.get(type);
    return c == null ? 0 : c[1];
  }

  @Override
  public TaskTimeModel taskTimes() {
    return times.byModel();
  }

  private void refreshCounts() {
    if (countsStamp != inventory.stamp()) {
      counts = inventory.counts();
      types = List.copyOf(counts.keySet());
      countsStamp = inventory.stamp();
    }
  }
}
