package io.hare.core.policy.gang;

import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;

/**
 * What every gang baseline does alike ({@link GangLeases}): a leased job's held GPUs take its
 * tasks whenever it has ready ones, a new round's or a failed task's, so both events only mark
 * the job due for the next dispatch.
 */
abstract class GangPolicy implements SchedulingPolicy {

  final GangLeases leases = new GangLeases();

  @Override
  public final void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    leases.markDue(job.id());
  }

  @Override
  public final void onTasksReady(JobView job, long nowMs) {
    leases.markDue(job.id()); // a leased job's held GPUs take its new ready tasks
  }
}
