package io.hare.demo;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.Replan;
import io.hare.core.policy.SchedulingPolicy;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A policy run in the simulator as the ResourceManager ran it, so a replay makes the same
 * decisions at the same moments:
 * <ul>
 *   <li>every computed task's measured time is recorded ({@link Observer}) before the policy
 *       hears of it, so the estimates it reads next are refined as in {@code PolicyHost.taskEnded};
 *   <li>it re-plans when, and only when, the RM started a re-plan ({@code replan-interval-ms},
 *       background re-plans); a re-plan the RM split ({@link SchedulingPolicy#startReplan})
 *       and installed at a later pass is installed at that pass's time here too, before the
 *       policy is offered GPUs then; it is offered GPUs only at the times the RM consulted it (its
 *       heartbeat passes), so an event the RM batched into a later pass is decided there too;
 *       the simulator is woken at each of those times;
 *   <li>where a warm container went on with its job's next task between passes, the same job
 *       goes on on a GPU of that node and type whose task ended then: in YARN that is the
 *       host's rule (the job first in line at the last pass keeps its warm GPU), not a decision
 *       the policy made at that instant, so the replay takes it as given
 *       ({@link #continuations}, started by the simulator before the policy is asked, as the
 *       RM does; and outside the queues' guarantees, which count it as running).
 * </ul>
 * Everything else goes to the policy unchanged.
 */
final class ReplayedPolicy implements SchedulingPolicy {

  /** A warm container that went on with its job's next task at {@code ms} (relative). */
  record Continuation(long ms, String jobId, String host, String gpuType) {}

  /** Records a measured task time of a job on a GPU type. */
  @FunctionalInterface
  interface Observer {
    void observe(String jobId, GpuType type, long computeMs);
  }

  private final SchedulingPolicy policy;
  private final Observer observer;
  private final long[] replans;
  /** When the RM installed its split re-plans, the k-th for the k-th begun; empty: none split. */
  private final long[] installs;
  private final long[] consults;
  private final java.util.Map<Long, List<Continuation>> continuations = new java.util.HashMap<>();
  private final long[] wakeUps;
  /** GPUs whose task was computed at {@link #computedAtMs}. */
  private final java.util.Set<String> computedNow = new java.util.HashSet<>();
  private long computedAtMs = Long.MIN_VALUE;
  private long lastReplanMs = Long.MIN_VALUE;
  private long nowMs = Long.MIN_VALUE;
  private int replansBegun;
  /** A split re-plan solved and waiting for its install time; null when none. */
  private Replan.Solved pending;
  private long pendingAtMs;
  private ClusterView pendingCluster;

  /**
   * @param replans times the RM started a re-plan, ascending
   * @param installs times the RM installed a split re-plan, ascending; empty where it split none
   *     (a policy that does not split, or a run recorded before re-plans were split)
   * @param consults times the RM offered the policy its free GPUs, ascending
   * @param continuations warm containers that went on with their job's next task
   */
  ReplayedPolicy(SchedulingPolicy policy, Observer observer, long[] replans, long[] installs,
      long[] consults, List<Continuation> continuations) {
    this.policy = policy;
    this.observer = observer;
    this.replans = replans.clone();
    this.installs = installs.clone();
    this.consults = consults.clone();
    continuations.forEach(c -> this.continuations.computeIfAbsent(c.ms(),
        k -> new java.util.ArrayList<>()).add(c));
    this.wakeUps = java.util.stream.LongStream.concat(java.util.stream.LongStream.concat(
        java.util.stream.LongStream.concat(java.util.Arrays.stream(replans),
            java.util.Arrays.stream(installs)), java.util.Arrays.stream(consults)),
        continuations.stream().mapToLong(Continuation::ms)).sorted().distinct().toArray();
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
    if (nowMs != computedAtMs) {
      computedNow.clear();
      computedAtMs = nowMs;
    }
    computedNow.add(gpu.id());
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
    policy.onQueuesGated(nowMs); // the RM's gate tells its policy so: no exact plans there
  }

  @Override
  public Optional<String> queuesUnsupported() {
    return policy.queuesUnsupported();
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    policy.onRoundDone(job, nowMs);
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    policy.onJobDone(job, nowMs);
  }

  /**
   * Also installs a split re-plan whose time has come: the simulator asks this at every instant
   * after that instant's events and before it offers GPUs, where the RM's pass installs one.
   */
  @Override
  public boolean replanDue(long nowMs) {
    this.nowMs = nowMs;
    if (pending != null && pendingAtMs <= nowMs) {
      Replan.Solved s = pending;
      pending = null;
      s.install(pendingCluster, nowMs);
    }
    int i = firstAfter(replans, lastReplanMs);
    boolean due = i < replans.length && replans[i] <= nowMs;
    if (due) {
      lastReplanMs = nowMs;
    }
    return due;
  }

  /**
   * As the RM: where it installed this re-plan at a later pass, the snapshot and solve are now
   * and the install then ({@link #replanDue}); else the whole re-plan now.
   */
  @Override
  public void replan(ClusterView cluster, long nowMs) {
    int k = replansBegun++;
    // a split re-plan the run ended before installing is never installed
    long installAt = installs.length == 0 ? nowMs
        : k < installs.length ? installs[k] : Long.MAX_VALUE;
    if (installAt > nowMs) {
      Optional<Replan> split = policy.startReplan(cluster, nowMs);
      if (split.isPresent()) {
        pending = split.get().solve();
        pendingAtMs = installAt;
        pendingCluster = cluster;
        return;
      }
    }
    policy.replan(cluster, nowMs);
  }

  @Override
  public OptionalLong wakeUpAtMs() {
    int i = firstAfter(wakeUps, nowMs);
    return i < wakeUps.length ? OptionalLong.of(wakeUps[i]) : OptionalLong.empty();
  }

  /**
   * The warm continuations of this instant ({@link io.hare.sim.HostStarts}): each on a GPU of its
   * node and type whose task was computed now. The simulator starts them before the policy
   * re-plans or is offered the free GPUs, as the RM counts a continued task (computed, then
   * started) before its pass: the offer then sees that GPU busy with the job's next task and the
   * job with one ready task less, not a GPU it is not offered and a ready task it cannot place.
   */
  List<Assignment> continuations(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    List<Continuation> warm = computedAtMs == nowMs ? continuations.get(nowMs) : null;
    if (warm == null) {
      return List.of();
    }
    List<Assignment> out = new java.util.ArrayList<>();
    // never more than the job has ready (where the simulator's state already differs from
    // YARN's, a continuation may find none)
    java.util.Map<String, Integer> given = new java.util.HashMap<>();
    List<GpuView> left = new java.util.ArrayList<>(freeGpus);
    for (Continuation c : warm) {
      if (!mayGive(cluster, given, c.jobId())) {
        continue;
      }
      for (java.util.Iterator<GpuView> it = left.iterator(); it.hasNext(); ) {
        GpuView g = it.next();
        if (computedNow.contains(g.id()) && g.node().equals(c.host())
            && g.type().name().equals(c.gpuType())) {
          out.add(new Assignment(g.id(), c.jobId()));
          given.merge(c.jobId(), 1, Integer::sum);
          it.remove();
          break;
        }
      }
    }
    return out;
  }

  /** The policy's answer where the RM offered its free GPUs then, else none. */
  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    this.nowMs = nowMs;
    return java.util.Arrays.binarySearch(consults, nowMs) >= 0
        ? policy.assign(cluster, freeGpus, nowMs) : List.of();
  }

  /** Whether the job has a ready task not yet given in this answer. */
  private static boolean mayGive(ClusterView cluster, java.util.Map<String, Integer> given,
      String jobId) {
    JobView job = cluster.job(jobId);
    return job != null && given.getOrDefault(jobId, 0) < job.readyTasks();
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
