package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;

import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.junit.Test;

/** Which exit statuses are the task's own failures, which losses, which the node's fault. */
public class TaskEndsTest {

  @Test(timeout = 60_000)
  public void yarnsNodeAndClusterStatusesAreLossesAndEverythingElseTheTasks() {
    int[] lost = {ContainerExitStatus.ABORTED, ContainerExitStatus.DISKS_FAILED,
        ContainerExitStatus.PREEMPTED, ContainerExitStatus.KILLED_BY_RESOURCEMANAGER,
        ContainerExitStatus.KILLED_BY_CONTAINER_SCHEDULER, ContainerExitStatus.KILLED_BY_APPMASTER,
        ContainerExitStatus.KILLED_AFTER_APP_COMPLETION};
    int[] own = {1, 3, 137, 143, 255, ContainerExitStatus.KILLED_EXCEEDED_PMEM,
        ContainerExitStatus.KILLED_EXCEEDED_VMEM, ContainerExitStatus.KILLED_FOR_EXCESS_LOGS,
        ContainerExitStatus.INVALID};
    for (int s : lost) {
      assertEquals("exit status " + s, true, TaskEnds.lost(s));
    }
    for (int s : own) {
      assertEquals("exit status " + s, false, TaskEnds.lost(s));
      assertEquals("exit status " + s, false, TaskEnds.blamesNode(s));
    }
    assertEquals(true, TaskEnds.blamesNode(ContainerExitStatus.ABORTED));
    assertEquals(true, TaskEnds.blamesNode(ContainerExitStatus.DISKS_FAILED));
    assertEquals(false, TaskEnds.blamesNode(ContainerExitStatus.PREEMPTED));
  }
}
