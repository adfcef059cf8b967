package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.policy.hare.HareKeys;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.Test;

/**
 * The basic path on one node: ApplicationMasters FIFO and never behind GPU tasks, GPU tasks
 * through the policy, no GPU over-committed, jobs' rounds interleaved, YARN's maximum allocation
 * kept.
 */
public class HareSchedulerTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void neverMoreGpuTasksOnANodeThanItHasGpus() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    RMApp app = h.submit();
    MockAM am = h.launch(app, nm);
    HareRm.askGpuTasks(am, 3);
    List<Container> got = h.heartbeatAndPull(am, nm);
    assertEquals("2 GPUs, 3 asks: 2 containers", 2, got.size());
    assertTrue(got.stream().allMatch(c -> HareRm.gpus(c) == 1));
    assertEquals(0, h.heartbeatAndPull(am, nm).size());
    h.finish(nm, got.get(0));
    List<Container> third = h.heartbeatAndPull(am, nm);
    assertEquals("the freed GPU takes the third task", 1, third.size());
  }

  /**
   * Priority dispatch (exact plans off): x's first round ran; y, ranked equal and waiting, gets
   * the GPUs x freed, and x's second round follows.
   */
  @Test(timeout = 300_000)
  public void roundsOfTwoJobsInterleaveOnOneNode() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setInt(HareKeys.EXACT_MAX_TASKS, 0);
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 2);
    MockAM[] xy = firstRoundOfOneOfTwoJobs(nm);
    MockAM x = xy[0];
    MockAM y = xy[1];
    List<Container> second = h.heartbeatAndPull(y, nm);
    assertEquals("the waiting job's round gets the GPUs x freed", 2, second.size());
    assertEquals(0, h.heartbeatAndPull(x, nm).size());
    for (Container c : second) {
      h.finish(nm, c);
    }
    List<Container> third = h.heartbeatAndPull(x, nm);
    assertEquals("x's second round follows", 2, third.size());
    assertEquals(Set.of(x.getApplicationAttemptId()), owners(third));
  }

  /**
   * The same two jobs with an exact plan of the state (HareKeys.EXACT_MAX_TASKS): finishing one job first is optimal for two equal jobs without sync
   * (rounds of time T: 2T + 4T, against 3T + 4T interleaved), so the RM gives x's second round
   * the GPUs x freed and y waits for them.
   */
  @Test(timeout = 300_000)
  public void withAnExactPlanTheFirstJobsSecondRoundTakesTheGpusItFreed() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setInt(HareKeys.EXACT_MAX_TASKS, 24);
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 2);
    MockAM[] xy = firstRoundOfOneOfTwoJobs(nm);
    MockAM x = xy[0];
    MockAM y = xy[1];
    assertEquals("y waits", 0, h.heartbeatAndPull(y, nm).size());
    List<Container> second = h.heartbeatAndPull(x, nm);
    assertEquals("x's second round takes the GPUs it freed", 2, second.size());
    for (Container c : second) {
      h.finish(nm, c);
    }
    assertEquals("then y's first round", 2, h.heartbeatAndPull(y, nm).size());
  }

  /**
   * On {@code nm} (2 GPUs), two jobs of 2 rounds of 2 tasks: one job's first round runs on both
   * GPUs and ends, and it asks for its next round (after its sync). Returns that job, then the
   * other.
   */
  private MockAM[] firstRoundOfOneOfTwoJobs(MockNM nm) throws Exception {
    MockAM a = h.launch(h.submit("hare.rounds=2", "hare.tasks-per-round=2"), nm);
    MockAM b = h.launch(h.submit("hare.rounds=2", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(a, 2);
    HareRm.askGpuTasks(b, 2);
    List<Container> first = h.heartbeatAndPull(a, nm);
    first.addAll(h.heartbeatAndPull(b, nm));
    assertEquals("two GPUs: one job's round of 2", 2, first.size());
    Set<ApplicationAttemptId> owners = owners(first);
    assertEquals("a round runs on both GPUs together", 1, owners.size());
    MockAM x = owners.contains(a.getApplicationAttemptId()) ? a : b;
    for (Container c : first) {
      h.finish(nm, c);
    }
    HareRm.askGpuTasks(x, 2);
    return new MockAM[] {x, x == a ? b : a};
  }

  @Test(timeout = 300_000)
  public void applicationMasterIsPlacedWhileGpuTasksWait() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(a, 4);
    assertEquals(2, h.heartbeatAndPull(a, nm).size()); // two GPU tasks wait
    MockAM b = h.launch(h.submit(), nm); // fails unless B's AM container is placed
    assertEquals(RMAppAttemptState.RUNNING, h.rm.getRMContext().getRMApps()
        .get(b.getApplicationAttemptId().getApplicationId()).getCurrentAppAttempt()
        .getAppAttemptState());
    // a non-GPU container of B is placed at once too, GPUs all busy
    b.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(2), ResourceRequest.ANY,
        HareRm.resource(512, 1, 0), 1)), List.of());
    List<Container> cpu = h.heartbeatAndPull(b, nm);
    assertEquals(1, cpu.size());
    assertEquals(0, HareRm.gpus(cpu.get(0)));
    assertEquals("A's two other GPU tasks still wait", 0, h.heartbeatAndPull(a, nm).size());
  }

  @Test(timeout = 300_000)
  public void aFailedTaskAskedAgainIsPlacedAgain() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submit("hare.rounds=1", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> round = h.heartbeatAndPull(a, nm);
    assertEquals(2, round.size());
    h.end(nm, round.get(0), 1); // the task failed; its GPU is free again
    assertEquals("nothing is asked, nothing placed", 0, h.heartbeatAndPull(a, nm).size());
    HareRm.askGpuTasks(a, 1); // the AM retries it
    List<Container> retry = h.heartbeatAndPull(a, nm);
    assertEquals(1, retry.size());
    assertEquals(round.get(0).getNodeId(), retry.get(0).getNodeId());
  }

  /** Several GPUs per container are served (MultiGpuContainersTest), up to YARN's maximum. */
  @Test(timeout = 300_000)
  public void aContainerOverYarnsMaximumAllocationIsRefusedByYarn() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setLong("yarn.resource-types." + HareRm.GPU + ".maximum-allocation", 4);
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    MockAM a = h.launch(h.submit(), nm);
    try {
      a.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(1),
          ResourceRequest.ANY, HareRm.resource(1024, 1, 8), 1)), List.of());
      fail("an 8-GPU container was accepted over a maximum of 4");
    } catch (Exception e) {
      assertTrue(e.toString(), e.toString().contains("yarn.io/gpu")
          && e.toString().contains("maximum"));
    }
  }

  private static Set<ApplicationAttemptId> owners(List<Container> cs) {
    return cs.stream().map(c -> c.getId().getApplicationAttemptId()).collect(Collectors.toSet());
  }

  /**
   * A NodeManager misconfigured to report billions of GPUs: Hare keeps an object per GPU, so it
   * ran the RM out of memory at the node's registration. Such a node now offers no GPUs (an
   * error names it and what to check), and the other node's GPUs serve the job.
   */
  @Test(timeout = 120_000)
  public void aNodeReportingBillionsOfGpusOffersNoneAndOthersServe() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM ok = h.node("h1:1234", 2);
    NetUtils.addStaticResolution("h2", "127.0.0.1");
    MockNM odd = h.rm.registerNode("h2:1234",
        HareRm.resource(16 * 1024, 16, Integer.MAX_VALUE));
    MockAM am = h.launch(h.submit(), ok);
    HareRm.askGpuTasks(am, 3);
    List<Container> got = h.heartbeatAndPull(am, odd, ok);
    assertEquals("the two real GPUs", 2, got.size());
    for (Container c : got) {
      assertEquals("h1", c.getNodeId().getHost());
    }
    assertEquals("nothing on the misconfigured node", List.of(), h.heartbeatAndPull(am, odd));
  }
}
