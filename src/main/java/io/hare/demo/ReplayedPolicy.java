package io.hare.demo;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import java.util.List;
import java.util.OptionalLong;

/**
 * A policy whose host learns task times as the ResourceManager's does: every computed task's
 * measured time is recorded ({@link Observer}) before the policy hears of it, so the estimates
 * the policy reads next are refined exactly as in {@code PolicyHost.taskEnded}. Everything else
 * goes to the policy unchanged.
 */
final class Learning implements SchedulingPolicy {

  /** Records a measured task time of a job on a GPU type. */
  @FunctionalInterface
  interface Observer {
    void observe(String jobId, GpuType type, long computeMs);
  }

  private final SchedulingPolicy policy;
  private final Observer observer;

  Learning(SchedulingPolicy policy, Observer observer) {
    this.policy = policy;
    this.observer = observer;
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
    observer.observe(job.id(), gpu.type(), computeMs);
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
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    return policy.assign(cluster, freeGpus, nowMs);
  }
}
