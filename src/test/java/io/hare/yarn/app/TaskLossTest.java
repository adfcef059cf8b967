package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A task lost through no fault of its own (a start the NodeManager refused, its node lost, its
 * disks failed, preempted or killed by YARN) is asked again without using one of its
 * {@code task.max-attempts}, away from its node when the node is to blame; only the task's own
 * failures (a non-zero exit) fail the job.
 */
public class TaskLossTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  /** A job of one round of one task that fails at its first counted failure. */
  private static TestingAm oneTaskOneAttempt() throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 1, 1, false), 0);
    am.protocol.start();
    am.take();
    return am;
  }

  @Test(timeout = 60_000)
  public void aStartTheNodeManagerRefusedIsAskedAgainAwayFromItsNodeWithoutUsingAnAttempt()
      throws Exception {
    TestingAm am = oneTaskOneAttempt();
    Container c = am.allocate("v100-a", 1).get(0);
    am.take();
    am.protocol.onStartFailed(c.getId(), new IOException("Container "
        + c.getId() + " rejected as it is allocated by a previous RM"));
    assertEquals(List.of("release 1", "blacklist +v100-a", "add"), am.take());
    assertFalse("one attempt allowed, none used", am.protocol.outcome().isPresent());
    am.completeAll(am.allocate("t4-b", 1));
    assertEquals(List.of("remove", "start 2", "checkpoint 1"), am.take());
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void aContainerLostWithItsNodeOrDisksIsAskedAgainAwayFromThatNode() throws Exception {
    TestingAm am = oneTaskOneAttempt();
    am.allocate("v100-a", 1);
    am.take();
    am.complete(1, ContainerExitStatus.ABORTED); // the RM lost the node
    assertEquals(List.of("blacklist +v100-a", "add"), am.take());
    am.allocate("t4-b", 1);
    am.take();
    am.complete(2, ContainerExitStatus.DISKS_FAILED);
    assertEquals(List.of("blacklist +t4-b", "add"), am.take());
    am.completeAll(am.allocate("t4-c", 1));
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void aContainerPreemptedOrKilledByYarnIsAskedAgainAndItsNodeStaysUsable()
      throws Exception {
    TestingAm am = oneTaskOneAttempt();
    long n = 1;
    for (int status : new int[] {ContainerExitStatus.PREEMPTED,
        ContainerExitStatus.KILLED_BY_RESOURCEMANAGER,
        ContainerExitStatus.KILLED_BY_CONTAINER_SCHEDULER}) {
      am.allocate("v100-a", 1);
      am.take();
      am.complete(n++, status);
      assertEquals("exit status " + status, List.of("add"), am.take());
    }
    am.completeAll(am.allocate("v100-a", 1));
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void onlyTheTasksOwnFailuresUseItsAttemptsAndFailTheJob() throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(2, 1, 2, false), 0);
    am.protocol.start();
    am.allocate("v100-a", 1);
    am.complete(1, ContainerExitStatus.ABORTED); // lost: not counted
    am.allocate("t4-b", 1);
    am.complete(2, 3); // its own failure: 1 of 2
    am.allocate("t4-b", 1);
    am.protocol.onStartFailed(TestingAm.id(3), new ConnectException("Connection refused"));
    assertFalse("one own failure of two allowed", am.protocol.outcome().isPresent());
    am.allocate("t4-c", 1);
    am.complete(4, ContainerExitStatus.KILLED_EXCEEDED_PMEM); // YARN killed it for its memory
    JobOutcome o = am.protocol.outcome().orElseThrow();
    assertFalse(o.succeeded());
    assertTrue(o.diagnostics(), o.diagnostics().startsWith("round 0 task 0 failed 2 times;"
        + " last attempt: exit code " + ContainerExitStatus.KILLED_EXCEEDED_PMEM
        + " on container container_1700000000000_0007_01_000004 at t4-c:8041"));
  }

  @Test(timeout = 60_000)
  public void aTaskLostAgainAndAgainFailsTheJobSayingItWasNotItsOwnFault() throws Exception {
    TestingAm am = oneTaskOneAttempt();
    for (long n = 1; n <= TaskEnds.MAX_LOST_ATTEMPTS; n++) {
      assertFalse("lost " + (n - 1) + " times", am.protocol.outcome().isPresent());
      am.allocate("t4-" + n, 1);
      am.complete(n, ContainerExitStatus.ABORTED);
    }
    JobOutcome o = am.protocol.outcome().orElseThrow();
    assertFalse(o.succeeded());
    assertTrue(o.diagnostics(), o.diagnostics().startsWith("round 0 task 0 lost "
        + TaskEnds.MAX_LOST_ATTEMPTS + " attempts to node or cluster failures, the most a task"
        + " may (these do not count against yarn.app.hare.task.max-attempts); last attempt:"
        + " exit code -100 on container container_1700000000000_0007_01_000020 at t4-20:8041"));
  }

  @Test(timeout = 60_000)
  public void aBlacklistedNodeIsTakenBackAfterTheHoldOrWhenTheRmReportsItRunning()
      throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 3, 1, false), 0);
    am.protocol.start();
    am.allocate("v100-a", 2);
    am.allocate("t4-b", 1);
    am.take();
    am.nowMs = 1_000;
    am.complete(1, ContainerExitStatus.ABORTED);
    am.nowMs = 2_000;
    am.complete(2, ContainerExitStatus.ABORTED); // held already: its hold starts again
    am.complete(3, ContainerExitStatus.ABORTED);
    assertEquals(List.of("blacklist +v100-a", "add", "add", "blacklist +t4-b", "add"),
        am.take());
    am.nowMs = 1_000 + NodeBlacklist.HOLD_MS;
    am.protocol.beforeHeartbeat();
    assertEquals("v100-a's hold ends 60 s after its last loss", List.of(), am.take());
    am.protocol.onNodesUpdated(List.of(report("t4-b", NodeState.RUNNING),
        report("v100-a", NodeState.UNHEALTHY)));
    assertEquals(List.of("blacklist -t4-b"), am.take());
    am.nowMs = 2_000 + NodeBlacklist.HOLD_MS;
    am.protocol.beforeHeartbeat();
    assertEquals(List.of("blacklist -v100-a"), am.take());
    am.protocol.beforeHeartbeat();
    assertEquals(List.of(), am.take());
  }

  private static NodeReport report(String host, NodeState state) {
    return NodeReport.newInstance(NodeId.newInstance(host, 8041), state, host + ":8042", null,
        Resource.newInstance(1024, 1), Resource.newInstance(0, 0), 0, "", 0L);
  }
}
