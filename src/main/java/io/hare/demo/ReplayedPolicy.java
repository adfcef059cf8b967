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
 * A policy run in the simulator as the ResourceManager ran it, so a replay makes the same
 * decisions at the same moments:
 * <ul>
 *   <li>every computed task's measured time is recorded ({@link Observer}) before the policy
 *       hears of it, so the estimates it reads next are refined as in {@code PolicyHost.taskEnded};
 *   <li>it re-plans when, and only when, the RM started a re-plan ({@code replan-interval-ms},
 *       background re-plans), and is offered GPUs only at the times the RM consulted it (its
 *       heartbeat passes), so an event the RM batched into a later pass is decided there too;
 *       the simulator is woken at each of those times.
 * </ul>
 * Everything else goes to the policy unchanged.
 */
final class ReplayedPolicy implements SchedulingPolicy {

  /** Records a measured task time of a job on a GPU type. */
  @FunctionalInterface
  interface Observer {
    void observe(String jobId, GpuType type, long computeMs);
  }

  private final SchedulingPolicy policy;
  private final Observer observer;
  private final long[] replans;
  private final long[] consults;
  private final long[] wakeUps;
  private long lastReplanMs = Long.MIN_VALUE;
  private long nowMs = Long.MIN_VALUE;

  /**
   * @param replans times the RM started a re-plan, ascending
   * @param consults times the RM offered the policy its free GPUs, ascending
   */
  ReplayedPolicy(SchedulingPolicy policy, Observer observer, long[] replans, long[] consults) {
    this.policy = policy;
    this.observer = observer;
    this.replans = replans.clone();
    this.consults = consults.clone();
    this.wakeUps = java.util.stream.LongStream.concat(java.util.Arrays.stream(replans),
        java.util.Arrays.stream(consults)).sorted().distinct().toArray();
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
    this.nowMs = nowMs;
    int i = firstAfter(replans, lastReplanMs);
    boolean due = i < replans.length && replans[i] <= nowMs;
    if (due) {
      lastReplanMs = nowMs;
    }
    return due;
  }

  @Override
  public void replan(ClusterView cluster, long nowMs) {
    policy.replan(cluster, nowMs);
  }

  @Override
  public OptionalLong wakeUpAtMs() {
    int i = firstAfter(wakeUps, nowMs);
    return i < wakeUps.length ? OptionalLong.of(wakeUps[i]) : OptionalLong.empty();
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    this.nowMs = nowMs;
    if (java.util.Arrays.binarySearch(consults, nowMs) < 0) {
      return List.of(); // the RM did not offer GPUs at this moment
    }
    return policy.assign(cluster, freeGpus, nowMs);
  }

  /** Index of the first time in {@code sorted} after {@code ms}. */
  private static int firstAfter(long[] sorted, long ms) {
    int i = java.util.Arrays.binarySearch(sorted, ms);
    if (i < 0) {
      return -i - 1;
    }
    while (i < sorted.length && sorted[i] == ms) {
      i++;
    }
    return i;
  }
}
