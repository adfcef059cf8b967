package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * After the AM refreshes its tokens, no task runs in a container launched with the old ones
 * (they die at their own expiry): a warm container retires at its task boundary instead of
 * taking the next task or parking, and a standby waiting for its GPU is given up; containers
 * launched after the refresh carry on as before.
 */
public class TokenGenerationTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  private static TestingAm am(int rounds, int k) throws Exception {
    return TestingAm.warmParkable(rounds, k);
  }

  @Test(timeout = 60_000)
  public void withoutARefreshAWarmContainerTakesTheRoundsNextTask() throws Exception {
    TestingAm am = am(2, 2);
    Container c = am.allocate("v100-a", 1).get(0); // task 0; task 1 waits
    am.take();
    assertEquals(Optional.of(new RunnerServer.Next(0, 1)),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
  }

  @Test(timeout = 60_000)
  public void aWarmContainerOfOldTokensRetiresAndTheNextTaskGetsANewContainer()
      throws Exception {
    TestingAm am = am(2, 2);
    Container c = am.allocate("v100-a", 1).get(0); // task 0 at generation 0
    am.take();
    am.tokenGeneration = 1;
    am.protocol.onTokensRefreshed();
    assertEquals("no next task, and not parked: it retires", Optional.empty(),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
    assertEquals("task 1's ask stays for a new container", List.of(), am.take());
    assertEquals(1, am.asked.size());
    am.complete(c.getId().getContainerId(), 0); // the retired runner's exit carries no task
    Container d = am.allocate("v100-a", 1).get(0); // launched at generation 1
    assertEquals(List.of("remove", "start " + d.getId().getContainerId()), am.take());
    assertEquals("the round's last task: parked for round 1 as usual",
        Optional.of(RunnerServer.Next.PARK), am.protocol.onRunnerTaskEnded(d.getId(), 0));
    assertFalse(am.protocol.outcome().isPresent());
  }

  @Test(timeout = 60_000)
  public void aRefreshGivesUpStandbysAndParkedContainersOfOldTokensOnly() throws Exception {
    TestingAm am = am(3, 1);
    am.standby("t4-b"); // container 1, generation 0
    Container c = am.allocate("v100-a", 1).get(0); // container 2
    assertEquals(Optional.of(RunnerServer.Next.PARK),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
    am.parked(c);
    CompletableFuture<Optional<RunnerServer.Next>> answer = am.protocol.onRunnerReady(c.getId());
    am.take();
    am.tokenGeneration = 1;
    am.standby("t4-c"); // container 3, launched after the refresh
    am.take();
    am.protocol.onTokensRefreshed();
    assertEquals(List.of("release 1", "release 2"), am.take().stream().sorted().toList());
    assertEquals("the parked runner is told to exit", Optional.empty(), answer.getNow(null));
    am.protocol.onTokensRefreshed(); // the same generation again: nothing more to give up
    assertEquals(List.of(), am.take());
  }

  @Test(timeout = 60_000)
  public void aStandbyOfOldTokensPromotedBeforeTheRefreshWasHeardIsReleasedAndItsAskResent()
      throws Exception {
    TestingAm am = am(2, 1);
    Container s = am.standby("t4-b"); // container 1, generation 0
    am.take();
    am.tokenGeneration = 1; // refreshed; the protocol not told yet
    long ask = am.asked.get(0);
    am.promote(s, ask);
    assertEquals(List.of("release 1", "remove", "add"), am.take());
    assertEquals("the task still waits, under its ask", List.of(ask), am.asked);
    Container d = am.allocate("v100-a", 1).get(0);
    assertTrue(am.take().contains("start " + d.getId().getContainerId()));
  }
}
