package io.hare.yarn.app;

import org.apache.hadoop.yarn.api.records.ContainerExitStatus;

/**
 * Whose fault a task container's end is, by YARN's exit status. A task fails through its own
 * fault when its process exits non-zero, or YARN kills it for what it did (memory beyond its
 * container, too many logs); that counts against {@code yarn.app.hare.task.max-attempts}. It is
 * lost, through no fault of its own, when its node or the cluster ends it: {@code ABORTED}
 * (its node was lost, or the container expired unstarted), {@code DISKS_FAILED},
 * {@code PREEMPTED}, {@code KILLED_BY_RESOURCEMANAGER}, {@code KILLED_BY_CONTAINER_SCHEDULER},
 * {@code KILLED_BY_APPMASTER} and {@code KILLED_AFTER_APP_COMPLETION}; so is a start the
 * NodeManager refused or never answered. A lost task is asked again without counting, as
 * MapReduce counts such attempts killed rather than failed; {@link #MAX_LOST_ATTEMPTS} bounds
 * that, so a task cannot be lost forever.
 */
final class TaskEnds {

  /**
   * Most times one task of a round may be lost before the job fails: far more than a node loss
   * or a preemption costs (one each), few enough that a cluster losing every container ends the
   * job within minutes rather than never.
   */
  static final int MAX_LOST_ATTEMPTS = 20;

  private TaskEnds() {}

  /** Whether a container that ended with {@code exitStatus} was lost through no fault of its task. */
  static boolean lost(int exitStatus) {
    return switch (exitStatus) {
      case ContainerExitStatus.ABORTED, ContainerExitStatus.DISKS_FAILED,
          ContainerExitStatus.PREEMPTED, ContainerExitStatus.KILLED_BY_RESOURCEMANAGER,
          ContainerExitStatus.KILLED_BY_CONTAINER_SCHEDULER,
          ContainerExitStatus.KILLED_BY_APPMASTER,
          ContainerExitStatus.KILLED_AFTER_APP_COMPLETION -> true;
      default -> false;
    };
  }

  /**
   * Whether such a loss is the node's: its containers are lost with it or its disks failed, so
   * the task's next attempt should go elsewhere. A preemption or a kill by YARN's schedulers
   * says nothing about the node.
   */
  static boolean blamesNode(int exitStatus) {
    return exitStatus == ContainerExitStatus.ABORTED
        || exitStatus == ContainerExitStatus.DISKS_FAILED;
  }
}
