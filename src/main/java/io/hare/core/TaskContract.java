package io.hare.core;

/**
 * The environment every task and sync process of a Hare job gets: the contract between the
 * ApplicationMaster, which sets it, and the training code, which reads it (the Java example,
 * the PyTorch example, any user program). The sync step gets the same without the task index.
 */
public final class TaskContract {

  /** The YARN application id, for labels and logs. */
  public static final String JOB_ID = "HARE_JOB_ID";
  /** The round r, 0-based. */
  public static final String ROUND = "HARE_ROUND";
  /** The task's index in its round, 0 to k-1; not set for the sync step. */
  public static final String TASK_INDEX = "HARE_TASK_INDEX";
  /** k, the job's fixed number of tasks per round. */
  public static final String TASKS_PER_ROUND = "HARE_TASKS_PER_ROUND";
  /**
   * The job's working directory, shared by tasks, sync and AM: a plain path when it is on the
   * local file system and that is the default one (an NFS mount), else its URI.
   */
  public static final String WORK_DIR = "HARE_WORK_DIR";
  /** The GPU model of the task's node (e.g. v100), empty if unknown. */
  public static final String GPU_TYPE = "HARE_GPU_TYPE";
  /**
   * The index of the task's GPU device on its node, as Hare assigned it (a node whose GPUs YARN
   * does not isolate per container); not set where YARN isolates them (the NodeManager then
   * exposes the device it assigned: its devices cgroup, or {@code NVIDIA_VISIBLE_DEVICES} in a
   * Docker container).
   */
  public static final String GPU_DEVICE = "HARE_GPU_DEVICE";
  /**
   * In a standby container's launch only (a resident worker started before its GPU is free, on a
   * node whose GPUs YARN does not isolate): the index of the node's GPU it was made for, which
   * it will most likely get. Its worker may create its CUDA context and move its model there
   * while it waits; its task still names the device it got ({@link #GPU_DEVICE}).
   */
  public static final String STANDBY_DEVICE = "HARE_STANDBY_DEVICE";
  /** CUDA's device filter: set to {@link #GPU_DEVICE}'s index wherever that is set, except in a
   * resident worker's launch (it picks a device per task). */
  public static final String CUDA_VISIBLE_DEVICES = "CUDA_VISIBLE_DEVICES";

  private TaskContract() {}
}
