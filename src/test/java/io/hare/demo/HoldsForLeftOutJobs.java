package io.hare.demo;

import io.hare.core.GpuType;
import io.hare.core.plan.Forecast;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.policy.hare.HarePolicy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The hare policy as it was before a queue gate could leave jobs out of an offer: its offers see
 * every job, {@link JobView#leftOut} always false, so a job of a queue the offer does not serve
 * looks between rounds and may be held a GPU. Replaying a run recorded then with it tells whether
 * that alone made the run differ from its replay ({@link RecordedRunReplayTest}). Chosen by class
 * name ({@code yarn.scheduler.hare.policy}).
 */
public final class HoldsForLeftOutJobs implements SchedulingPolicy {

  private final SchedulingPolicy policy;

  public HoldsForLeftOutJobs(PolicyConfig config) {
    this.policy = new HarePolicy(config);
  }

  /** {@code cluster} with each job shown through {@link #job}. */
  private static ClusterView cluster(ClusterView cluster) {
    return (ClusterView) Proxy.newProxyInstance(ClusterView.class.getClassLoader(),
        new Class<?>[] {ClusterView.class}, (p, m, args) -> {
          Object r = call(m, cluster, args);
          if (m.getName().equals("job")) {
            return r == null ? null : job((JobView) r);
          }
          if (m.getName().equals("jobs")) {
            return ((List<?>) r).stream().map(j -> job((JobView) j)).toList();
          }
          return r;
        });
  }

  /** {@code view} that is never left out. */
  private static JobView job(JobView view) {
    return (JobView) Proxy.newProxyInstance(JobView.class.getClassLoader(),
        new Class<?>[] {JobView.class}, (p, m, args) -> m.getName().equals("leftOut")
            ? Boolean.FALSE : call(m, view, args));
  }

  private static Object call(java.lang.reflect.Method m, Object target, Object[] args)
      throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
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
    policy.onJobArrived(job, nowMs);
  }

  @Override
  public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
    policy.onTaskStarted(job, gpu, nowMs);
  }

  @Override
  public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
    policy.onTaskComputed(job, gpu, nowMs, computeMs);
  }

  @Override
  public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    policy.onTaskFailed(job, gpu, nowMs);
  }

  @Override
  public void onTasksReady(JobView job, long nowMs) {
    policy.onTasksReady(job, nowMs);
  }

  @Override
  public void onTasksShown(JobView job, long nowMs) {
    policy.onTasksShown(job, nowMs);
  }

  @Override
  public void onQueuesGated(long nowMs) {
    policy.onQueuesGated(nowMs);
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    policy.onRoundDone(job, nowMs);
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    policy.onJobDone(job, nowMs);
  }

  @Override
  public boolean replanDue(long nowMs) {
    return policy.replanDue(nowMs);
  }

  @Override
  public void replan(ClusterView cluster, long nowMs) {
    policy.replan(cluster, nowMs);
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
    return policy.firstInLine(cluster, type, nowMs);
  }

  @Override
  public List<String> line(ClusterView cluster, GpuType type, int n, long nowMs) {
    return policy.line(cluster, type, n, nowMs);
  }

  @Override
  public Optional<Supplier<Forecast>> forecast(ClusterView cluster, long nowMs) {
    return policy.forecast(cluster, nowMs);
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    return policy.assign(cluster(cluster), freeGpus, nowMs);
  }
}
