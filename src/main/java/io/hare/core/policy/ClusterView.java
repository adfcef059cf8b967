package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.profile.TaskTimeModel;
import java.util.List;

/** The state a policy decides on: active jobs, GPUs and task-time estimates. Read-only. */
public interface ClusterView {

  /** Active jobs (arrived, not finished) in arrival order; ties by id. */
  List<? extends JobView> jobs();

  /** An active job, or null. */
  JobView job(String id);

  /** All GPUs in a fixed order. */
  List<? extends GpuView> gpus();

  /**
   * Changes whenever the set of GPUs in {@link #gpus} changes (GPUs joining, leaving or changing
   * type), so a policy's cache of them knows when to rebuild; 0 for a cluster whose GPUs never
   * change.
   */
  default long gpusVersion() {
    return 0;
  }

  /** GPU types present in the cluster, in a fixed order. */
  List<GpuType> gpuTypes();

  int gpuCount(GpuType type);

  /** GPUs of {@code type} not running a task now. */
  int freeGpuCount(GpuType type);

  TaskTimeModel taskTimes();
}
