package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ConfigException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The round protocol with warm containers: a container whose task ends runs the round's next
 * waiting task at once, tells the scheduler so and withdraws that task's ask; it stops at the
 * barrier, when the scheduler revoked it, or after a failure; its end then carries no task.
 */
public class WarmContainerTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  private static ContainerId id(long n) {
    return ContainerId.newContainerId(TestingAm.ATTEMPT, n);
  }

  @Test(timeout = 60_000)
  public void oneContainerRunsTheWholeRoundThenStopsAtTheBarrier() throws ConfigException {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(2, 3, 1, true), 0);
    am.protocol.start();
    am.take();
    am.allocate("v100-a", 1);
    assertEquals(List.of("remove", "start 1"), am.take());
    assertEquals(Optional.of(new RunnerServer.Next(0, 1)),
        am.protocol.onRunnerTaskEnded(id(1), 0));
    assertEquals(List.of("remove", "task started in 1"), am.take());
    assertEquals(Optional.of(new RunnerServer.Next(0, 2)),
        am.protocol.onRunnerTaskEnded(id(1), 0));
    am.take();
    // the round's last task: the barrier, and the container exits instead of idling
    assertEquals(Optional.empty(), am.protocol.onRunnerTaskEnded(id(1), 0));
    assertEquals(List.of("sync 0"), am.take());
    am.complete(1, 0); // its end: not a fourth task
    assertEquals(List.of(), am.take());
    am.syncs.get(0).accept(0);
    assertEquals(List.of("checkpoint 1", "add", "add", "add"), am.take());
  }

  @Test(timeout = 60_000)
  public void aRevokedContainerRunsNoFurtherTask() throws ConfigException {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 2, 1, false), 0);
    am.protocol.start();
    am.take();
    List<Container> c = am.allocate("v100-a", 1);
    am.take();
    am.protocol.revoke(List.of(c.get(0).getId()));
    assertEquals(Optional.empty(), am.protocol.onRunnerTaskEnded(id(1), 0));
    assertEquals("task 1 still waits for a container of its own", List.of(), am.take());
    am.complete(1, 0);
    am.allocate("t4-b", 1);
    assertEquals(List.of("remove", "start 2"), am.take());
    am.complete(2, 0);
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void aTaskThatFailsInAWarmContainerIsAskedForAgainAndTheContainerExits()
      throws ConfigException {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 2, 2, false), 0);
    am.protocol.start();
    am.take();
    am.allocate("v100-a", 1);
    am.take();
    assertEquals(Optional.of(new RunnerServer.Next(0, 1)),
        am.protocol.onRunnerTaskEnded(id(1), 0));
    am.take();
    assertEquals(Optional.empty(), am.protocol.onRunnerTaskEnded(id(1), 3));
    assertEquals(List.of("add"), am.take()); // task 1 again, on any GPU
    am.complete(1, 0);
    am.allocate("t4-b", 2); // one for task 1; the other is surplus
    assertEquals(List.of("remove", "start 2", "release 3"), am.take());
    assertEquals("1", am.started.get(2L).get("HARE_TASK_INDEX"));
    am.complete(2, 0);
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void aWarmContainerLostWithATaskRunningFailsThatTask() throws ConfigException {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 2, 2, false), 0);
    am.protocol.start();
    am.take();
    am.allocate("v100-a", 1);
    am.take();
    am.protocol.onRunnerTaskEnded(id(1), 0); // task 1 follows in container 1 ...
    am.take();
    am.complete(1, TaskRunnerScript.LOST); // ... which ends before reporting it
    assertEquals(List.of("add"), am.take());
    am.allocate("t4-b", 1);
    assertEquals("1", am.started.get(2L).get("HARE_TASK_INDEX"));
  }
}
