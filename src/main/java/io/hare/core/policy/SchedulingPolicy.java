package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.plan.Forecast;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * A scheduling policy: the only place where Hare decides which task runs on which GPU. The same
 * object runs inside the simulator and inside the ResourceManager.
 *
 * <p><b>Protocol.</b> The host reports events through the {@code on...} callbacks (cheap: update
 * indices, mark the plan dirty), runs {@link #replan} when {@link #replanDue} says so (possibly
 * off the allocation path), then offers the GPUs that are free now to {@link #assign}. The
 * policy answers with at most one assignment per offered GPU, each naming a job with a ready
 * task; the host starts the job's next task on that GPU. A GPU the policy leaves unassigned
 * stays idle until the next offer: that is how gang policies hold GPUs for a job and how a
 * planned schedule waits for its next task. "Cannot place" is simply an empty answer.
 *
 * <p><b>Rules</b> (checked by the hosts and by {@code PolicyContractTest}): only offered GPUs,
 * each at most once; only jobs with {@link JobView#readyTasks()} &gt; 0, never more assignments
 * to a job than it has ready tasks; only GPU types the job can run on; the same answers for the
 * same seed and the same events. Breaking a rule is a bug and the host throws
 * {@link IllegalStateException}.
 *
 * <p><b>Threading.</b> The host calls one policy from one thread at a time.
 */
public interface SchedulingPolicy {

  /** The policy's short name, as in configuration and reports (its {@code NAME} constant). */
  String name();

  /**
   * Whether the policy reads job sizes ({@link JobView#rounds()}). A non-clairvoyant policy is
   * given views where the number of rounds is always empty.
   */
  boolean clairvoyant();

  default void onJobArrived(JobView job, long nowMs) {}

  default void onTaskStarted(JobView job, GpuView gpu, long nowMs) {}

  /** A task finished computing and freed {@code gpu}; its sync may still be running. */
  default void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {}

  /**
   * A task failed or was lost and freed {@code gpu}. In the simulator it is ready again at once;
   * in YARN it is ready when its application asks again, announced by {@link #onTasksReady}.
   */
  default void onTaskFailed(JobView job, GpuView gpu, long nowMs) {}

  /**
   * The job has more ready tasks than before for a reason other than a round barrier (for
   * example a failed task that its application asked for again, after {@link #onTaskFailed}
   * already freed the GPU). No GPU changes state. A policy that indexes ready jobs re-indexes
   * this one; {@link JobView#readyTasks()} already shows the new count.
   */
  default void onTasksReady(JobView job, long nowMs) {}

  /**
   * Ready tasks that the host kept from the last {@link #assign} (a queue below its guarantee was
   * served first, or the job's queue was at its maximum: {@link io.hare.core.queues}) are shown
   * again. They are not new work: a plan made before counted them already. A policy that drops
   * a job from its index of ready jobs when it shows none re-indexes it here. By default the
   * same as {@link #onTasksReady}.
   */
  default void onTasksShown(JobView job, long nowMs) {
    onTasksReady(job, nowMs);
  }

  /**
   * The host serves several queues' guarantees around {@link #assign}
   * ({@link io.hare.core.queues}): called before each such pass. Its calls may leave jobs out
   * ({@link JobView#leftOut}) and not carry out every answer, so a policy that follows a plan
   * laid out across calls, which needs each answer carried out, stops following it. By default
   * nothing.
   */
  default void onQueuesGated(long nowMs) {}

  /**
   * Why this policy, as configured, cannot run under several queues' guarantees (a host refuses
   * such a configuration with this reason); empty when it can, as by default.
   */
  default Optional<String> queuesUnsupported() {
    return Optional.empty();
  }

  /** The job's round barrier cleared: {@link JobView#roundsDone()} has just grown. */
  default void onRoundDone(JobView job, long nowMs) {}

  /** The job finished, was killed or was removed; it is no longer in the cluster view. */
  default void onJobDone(JobView job, long nowMs) {}

  /** Whether the policy wants {@link #replan} before the next {@link #assign}. */
  default boolean replanDue(long nowMs) {
    return false;
  }

  /** Heavy planning work (e.g. solving a relaxation). */
  default void replan(ClusterView cluster, long nowMs) {}

  /**
   * The re-plan of {@link #replan} in two steps, for a host that keeps offering GPUs while it
   * solves: called instead of {@code replan} (under the one-thread rule) when
   * {@link #replanDue} said so, it reads what the plan needs now and returns the {@link Replan},
   * whose solve the host runs on another thread and whose result it installs at a later
   * instant; meanwhile the policy decides by its previous plan. Empty (the default): the policy
   * does not split; the host calls {@code replan}. A policy that splits decides in
   * {@code replan(c, t)} exactly as {@code startReplan(c, t).solve().install(c, t)}.
   */
  default Optional<Replan> startReplan(ClusterView cluster, long nowMs) {
    return Optional.empty();
  }

  /** A time at which the policy wants to be offered GPUs again even if nothing happens. */
  default OptionalLong wakeUpAtMs() {
    return OptionalLong.empty();
  }

  /**
   * Whether the policy answers {@link #firstInLine}, letting a host keep a job's GPU for the
   * job's next ready task when its current task ends (YARN's warm containers) instead of
   * offering the GPU again. Without it the host takes every GPU back and offers it, so the policy
   * decides every task's GPU.
   */
  default boolean keepsWarmGpus() {
    return false;
  }

  /**
   * The job the policy would give a GPU of {@code type} if one were offered now: a host lets a
   * busy GPU run its job's next task without an offer only if that job is first in line for the
   * type. Empty when no job with ready tasks would use the type. Called only when
   * {@link #keepsWarmGpus} is true, like {@link #assign}, between events.
   */
  default Optional<String> firstInLine(ClusterView cluster, GpuType type, long nowMs) {
    return Optional.empty();
  }

  /**
   * The first {@code n} jobs in line for GPUs of {@code type}, in order, the first of them
   * {@link #firstInLine}'s: each would be given such GPUs once those before it have no ready
   * task left. Where {@code firstInLine} is "" (the GPUs follow a plan), the jobs the plan runs
   * next on such GPUs, by planned start. A host uses it to prepare the next jobs' starts (YARN's
   * standby containers). Empty when the policy does not say; called like {@link #firstInLine}.
   */
  default List<String> line(ClusterView cluster, GpuType type, int n, long nowMs) {
    return List.of();
  }

  /**
   * A completion forecast from the policy's current order ({@link Forecast}: an estimate), or
   * empty when the policy makes none. Called like {@link #assign}, between events; the policy
   * takes its snapshot of {@code cluster} now and the returned supplier does the heavy part (list
   * scheduling what is left), which a host may run on another thread, after the policy has moved
   * on.
   */
  default Optional<Supplier<Forecast>> forecast(ClusterView cluster, long nowMs) {
    return Optional.empty();
  }

  /**
   * Decides what starts now on the free GPUs offered.
   *
   * @param freeGpus GPUs free now that the host offers, in a fixed order; may be empty
   * @return assignments, possibly empty; never null
   */
  List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus, long nowMs);
}
