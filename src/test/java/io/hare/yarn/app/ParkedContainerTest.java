package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The round protocol parks the warm containers the scheduler tagged parkable (standbys on): a
 * container whose task ended with no next task for it now, while the job has tasks to come,
 * asks to give its GPU back and waits as a standby (its runner told park); the scheduler's
 * promotion later gives it the job's next task. In the last round, or untagged, it retires as
 * before.
 */
public class ParkedContainerTest {

  private static final RunnerServer.Next PARK = RunnerServer.Next.PARK;

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  private static TestingAm am(int rounds, int k) throws Exception {
    return TestingAm.warmParkable(rounds, k);
  }

  @Test(timeout = 60_000)
  public void theRoundsLastContainerIsParkedAndRunsTheNextRoundsFirstTask() throws Exception {
    TestingAm am = am(2, 1);
    am.standby("t4-b"); // container 1: the scheduler makes standbys
    Container c = am.allocate("v100-a", 1).get(0); // container 2: task 0
    am.take();
    assertEquals(Optional.of(PARK), am.protocol.onRunnerTaskEnded(c.getId(), 0));
    assertEquals(List.of("park 2", "sync 0"), am.take());
    am.parked(c);
    assertEquals("the NodeManager is told too", List.of("update 2 to 0 GPU"), am.take());
    CompletableFuture<Optional<RunnerServer.Next>> answer = am.protocol.onRunnerReady(c.getId());
    assertFalse("it waits through the sync step", answer.isDone());
    am.syncs.get(0).accept(0);
    assertEquals(List.of("checkpoint 1", "add"), am.take());
    am.promote(c, am.asked.get(0));
    assertEquals(List.of("remove", "update 2 to 1 GPU"), am.take());
    assertEquals(Optional.of(new RunnerServer.Next(1, 0)), answer.getNow(null));
    assertEquals("the last round's container retires", Optional.empty(),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
    am.syncs.get(1).accept(0);
    am.complete(2, 0);
    assertTrue(am.protocol.outcome().orElseThrow().succeeded());
  }

  @Test(timeout = 60_000)
  public void anUntaggedContainerOrOneInTheLastRoundRetires() throws Exception {
    TestingAm am = am(2, 1);
    am.parkable = false; // a scheduler without standbys
    Container c = am.allocate("v100-a", 1).get(0);
    am.take();
    assertEquals("the scheduler would not take it parked", Optional.empty(),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
    assertEquals(List.of("sync 0"), am.take());
    am.syncs.get(0).accept(0);
    am.complete(c.getId().getContainerId(), 0); // its end carries no task
    am.parkable = true;
    Container d = am.allocate("v100-a", 1).get(0);
    am.take();
    assertEquals(Optional.empty(), am.protocol.onRunnerTaskEnded(d.getId(), 0));
    assertEquals(List.of("sync 1"), am.take());
  }

  @Test(timeout = 60_000)
  public void aRevokedContainerWithTasksStillWaitingIsParkedToo() throws Exception {
    TestingAm am = am(1, 2);
    am.standby("t4-b"); // container 1
    Container c = am.allocate("v100-a", 1).get(0); // container 2: task 0; task 1 waits
    am.take();
    am.protocol.revoke(List.of(c.getId()));
    assertEquals("its GPU goes back, the container waits for task 1", Optional.of(PARK),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
    assertEquals(List.of("park 2"), am.take());
    am.parked(c);
    am.take();
    CompletableFuture<Optional<RunnerServer.Next>> answer = am.protocol.onRunnerReady(c.getId());
    am.promote(c, am.asked.get(0));
    assertEquals(Optional.of(new RunnerServer.Next(0, 1)), answer.getNow(null));
    assertEquals("the round's last task: it retires", Optional.empty(),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
    assertEquals(List.of("remove", "update 2 to 1 GPU", "sync 0"), am.take());
    am.syncs.get(0).accept(0);
    assertEquals("the job's end releases its standby", List.of("checkpoint 1", "release 1"),
        am.take());
  }

  @Test(timeout = 60_000)
  public void aParkedContainerTheSchedulerKillsIsNoFailureAndTheJobsEndReleasesIt()
      throws Exception {
    TestingAm am = am(3, 1);
    am.standby("t4-b");
    Container c = am.allocate("v100-a", 1).get(0);
    assertEquals(Optional.of(PARK), am.protocol.onRunnerTaskEnded(c.getId(), 0));
    am.complete(c.getId().getContainerId(), ContainerExitStatus.KILLED_BY_RESOURCEMANAGER);
    am.syncs.get(0).accept(0);
    assertFalse("killed while parked: no task lost", am.protocol.outcome().isPresent());
    Container d = am.allocate("v100-a", 1).get(0);
    am.take();
    assertEquals(Optional.of(PARK), am.protocol.onRunnerTaskEnded(d.getId(), 0));
    am.syncs.get(1).accept(3); // a failed sync step ends the job
    assertFalse(am.protocol.outcome().orElseThrow().succeeded());
    assertEquals("both waiting containers go back",
        List.of("park 3", "release 1", "release 3", "sync 1"),
        am.take().stream().sorted().toList());
  }
}
