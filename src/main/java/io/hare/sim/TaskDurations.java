package io.hare.sim;

import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;

/**
 * How long each task really takes in a simulation, when that differs from the task-time model
 * the policy is told: a replay of a measured run gives every task its measured time, while the
 * policy sees the estimates it had. Without one, every task takes its model's profiled times.
 */
@FunctionalInterface
public interface TaskDurations {

  /**
   * Compute and sync time of task {@code index} of round {@code round} of {@code job} on
   * {@code type}; never null for a type the job's model can run on.
   */
  TaskTimes of(JobSpec job, int round, int index, GpuType type);

  /**
   * Time from the job's submission (its {@link JobSpec#arrivalMs}, which the policy sees) to
   * its first ready tasks, when the policy hears of it: on YARN, the ApplicationMaster starting
   * and sending its first asks. 0 unless a replay says otherwise.
   */
  default long startupMs(JobSpec job) {
    return 0;
  }
}
