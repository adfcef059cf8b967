package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * A declared size buys a rank only while it is true: a job that declares one round and keeps
 * asking is ranked, from its first task past the declaration, as a job of unknown size, so it
 * cannot hold the GPU ahead of an honest job for as long as it asks.
 */
public class DeclaredSizeTest extends MockRmTestCase {

  /** With the defaults, which plan a node this small exactly. */
  @Test(timeout = 300_000)
  public void aJobThatAsksPastItsDeclaredRoundsLosesTheRankTheyBought() throws Exception {
    losesTheRank(HareRm.conf());
  }

  @Test(timeout = 300_000)
  public void underPriorityDispatchAloneToo() throws Exception {
    losesTheRank(HareRm.priorityDispatch(HareRm.conf()));
  }

  private void losesTheRank(YarnConfiguration conf) throws Exception {
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 1);
    MockAM honest = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=1"), nm);
    MockAM gamer = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(honest, 1);
    HareRm.askGpuTasks(gamer, 1);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    List<Container> first = gamer.allocate(List.of(), List.of()).getAllocatedContainers();
    assertEquals("one round declared against two: the gamer goes first", 1, first.size());
    Container running = first.get(0);
    int pastDeclared = 0;
    while (true) {
      HareRm.askGpuTasks(gamer, 1); // the ask stays absolute: one more task
      h.finish(nm, running);
      pastDeclared++;
      List<Container> honestGot = h.heartbeatAndPull(honest, nm);
      if (!honestGot.isEmpty()) {
        break;
      }
      List<Container> gamerGot = new java.util.ArrayList<>(
          gamer.allocate(List.of(), List.of()).getAllocatedContainers());
      assertEquals("the GPU went to one of them", 1, gamerGot.size());
      running = gamerGot.get(0);
      assertTrue("the honest job still waits after " + pastDeclared + " tasks past the"
          + " gamer's declared round", pastDeclared < 4);
    }
    assertEquals(1, h.scheduler().runningTasks(honest.getApplicationAttemptId()
        .getApplicationId()));
  }
}
