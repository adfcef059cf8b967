package io.hare.demo;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.plan.Forecast;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.core.profile.TaskTimeModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The hare policy fed what a scheduler that counts a round done at its last task's end shows it:
 * each job's finished rounds and tasks counted at compute ends, a syncing round included.
 * Replaying a run recorded on such a scheduler with it tells whether that count alone made the
 * run differ from its replay
 * ({@link RecordedRunReplayTest}). Chosen by class name ({@code yarn.scheduler.hare.policy}).
 */
public final class RoundsAtTaskEnds implements SchedulingPolicy {

  private final SchedulingPolicy policy;
  private final Map<String, Job> jobs = new HashMap<>();

  public RoundsAtTaskEnds(PolicyConfig config) {
    this.policy = new HarePolicy(config);
  }

  private Job shown(JobView j) {
    Job v = jobs.computeIfAbsent(j.id(), id -> new Job());
    v.view = j;
    return v;
  }

  private Cluster cluster(ClusterView c) {
    return new Cluster(c);
  }

  @Override
  public String name() {
    return policy.name();
  }

  @Override
  public boolean clairvoyant() {
    return policy.clairvoyant();
  }

  @Override
  public void onJobArrived(JobView job, long nowMs) {
    policy.onJobArrived(shown(job), nowMs);
  }

  @Override
  public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
    policy.onTaskStarted(shown(job), gpu, nowMs);
  }

  @Override
  public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
    Job j = shown(job);
    j.computed++;
    policy.onTaskComputed(j, gpu, nowMs, computeMs);
  }

  @Override
  public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    policy.onTaskFailed(shown(job), gpu, nowMs);
  }

  @Override
  public void onTasksReady(JobView job, long nowMs) {
    policy.onTasksReady(shown(job), nowMs);
  }

  @Override
  public void onTasksShown(JobView job, long nowMs) {
    policy.onTasksShown(shown(job), nowMs);
  }

  @Override
  public void onQueuesGated(long nowMs) {
    policy.onQueuesGated(nowMs);
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    policy.onRoundDone(shown(job), nowMs);
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    policy.onJobDone(shown(job), nowMs);
  }

  @Override
  public boolean replanDue(long nowMs) {
    return policy.replanDue(nowMs);
  }

  @Override
  public void replan(ClusterView cluster, long nowMs) {
    policy.replan(cluster(cluster), nowMs);
  }

  @Override
  public OptionalLong wakeUpAtMs() {
    return policy.wakeUpAtMs();
  }

  @Override
  public boolean keepsWarmGpus() {
    return policy.keepsWarmGpus();
  }

  @Override
  public Optional<String> firstInLine(ClusterView cluster, GpuType type, long nowMs) {
    return policy.firstInLine(cluster(cluster), type, nowMs);
  }

  @Override
  public List<String> line(ClusterView cluster, GpuType type, int n, long nowMs) {
    return policy.line(cluster(cluster), type, n, nowMs);
  }

  @Override
  public Optional<Supplier<Forecast>> forecast(ClusterView cluster, long nowMs) {
    return policy.forecast(cluster(cluster), nowMs);
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    return policy.assign(cluster(cluster), freeGpus, nowMs);
  }

  /** A job as the host shows it, but with rounds and tasks counted at compute ends. */
  private static final class Job implements JobView {
    JobView view;
    long computed;

    @Override
    public String id() {
      return view.id();
    }

    @Override
    public long arrivalMs() {
      return view.arrivalMs();
    }

    @Override
    public double weight() {
      return view.weight();
    }

    @Override
    public String model() {
      return view.model();
    }

    @Override
    public int tasksPerRound() {
      return view.tasksPerRound();
    }

    @Override
    public OptionalInt rounds() {
      return view.rounds();
    }

    @Override
    public int roundsDone() {
      int r = (int) (computed / view.tasksPerRound());
      return view.rounds().isPresent() ? Math.min(r, view.rounds().getAsInt()) : r;
    }

    @Override
    public int readyTasks() {
      return view.readyTasks();
    }

    @Override
    public int runningTasks() {
      return view.runningTasks();
    }

    @Override
    public long tasksDone() {
      return computed;
    }

    @Override
    public TaskTimes times(GpuType type) {
      return view.times(type);
    }

    @Override
    public boolean leftOut() {
      return view.leftOut();
    }
  }

  /** The host's cluster with its jobs shown as {@link Job}s. */
  private final class Cluster implements ClusterView {
    private final ClusterView cluster;

    Cluster(ClusterView cluster) {
      this.cluster = cluster;
    }

    @Override
    public List<? extends JobView> jobs() {
      List<Job> out = new ArrayList<>();
      cluster.jobs().forEach(j -> out.add(shown(j)));
      return out;
    }

    @Override
    public JobView job(String id) {
      JobView j = cluster.job(id);
      return j == null ? null : shown(j);
    }

    @Override
    public List<? extends GpuView> gpus() {
      return cluster.gpus();
    }

    @Override
    public long gpusVersion() {
      return cluster.gpusVersion();
    }

    @Override
    public List<GpuType> gpuTypes() {
      return cluster.gpuTypes();
    }

    @Override
    public int gpuCount(GpuType type) {
      return cluster.gpuCount(type);
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return cluster.freeGpuCount(type);
    }

    @Override
    public TaskTimeModel taskTimes() {
      return cluster.taskTimes();
    }
  }
}
