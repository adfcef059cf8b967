package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.OptionalInt;

/**
 * What a policy may know about one active job (arrived, not finished). Read-only; the host
 * (simulator or ResourceManager) updates it between calls.
 *
 * <p>Readiness comes from the host, not from the policy's own bookkeeping: in the simulator it
 * is the unstarted tasks of the round whose barrier has cleared, in YARN the job's outstanding
 * GPU asks. A policy may only assign a job that has {@link #readyTasks()} &gt; 0.
 */
public interface JobView {

  String id();

  long arrivalMs();

  double weight();

  /** Profile name that selects the task times. */
  String model();

  /** The fixed number of tasks (gradients) per round, k. */
  int tasksPerRound();

  /**
   * Total rounds R. Empty when the job did not declare it, and always empty for a policy that
   * says it is not {@link SchedulingPolicy#clairvoyant() clairvoyant}.
   */
  OptionalInt rounds();

  /** Rounds whose k tasks have all finished compute and sync. */
  int roundsDone();

  /** Tasks that may start now: barrier cleared, not yet started. */
  int readyTasks();

  /** Tasks computing on a GPU now. */
  int runningTasks();

  /** Tasks finished (compute and sync) over the job's life. */
  long tasksDone();

  /** Estimated times of one task of this job on {@code type}; null if it cannot run there. */
  TaskTimes times(GpuType type);

  /**
   * Whether the host leaves the job out of the current {@link SchedulingPolicy#assign} call
   * altogether: a queue gate ({@link io.hare.core.queues}) offers the free GPUs to other queues'
   * jobs, or has already given this job all its ready tasks in the same pass. Such a job shows no
   * ready tasks, and a policy must not keep GPUs for it either (a hold for its next round, a
   * planned task it waits for), or the queue the offer serves loses them to a job that may not
   * take them. False outside such a call.
   */
  default boolean leftOut() {
    return false;
  }
}
