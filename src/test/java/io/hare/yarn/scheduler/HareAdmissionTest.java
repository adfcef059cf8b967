package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.Policies;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.Test;

/**
 * Applications are admitted from their tags: weights capped by the admin, a malformed tag
 * rejects that application alone with a diagnostic the user sees, and others still run.
 */
public class HareAdmissionTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void tagsAreReadAndWeightsCapped() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.WEIGHT_MAX, "8");
    h = HareRm.start(conf);
    h.node("h1:1234", 2);
    RMApp big = h.submit("hare.weight=50", "hare.rounds=3", "hare.tasks-per-round=2");
    RMApp small = h.submit("hare.weight=2.5");
    RMApp plain = h.submit();
    assertEquals("clamped to weight.max", 8.0, h.scheduler().weight(big.getApplicationId()), 0);
    assertEquals(2.5, h.scheduler().weight(small.getApplicationId()), 0);
    assertEquals(1.0, h.scheduler().weight(plain.getApplicationId()), 0);
  }

  @Test(timeout = 300_000)
  public void aMalformedTagRejectsOnlyThatApplication() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 1);
    RMApp bad = MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withApplicationTags(java.util.Set.of("hare.weight=abc"))
        .withWaitForAppAcceptedState(false).build());
    h.rm.waitForState(bad.getApplicationId(), RMAppState.FAILED);
    String diagnostics = bad.getDiagnostics().toString();
    assertTrue(diagnostics, diagnostics.contains("hare.weight=abc"));
    assertTrue(diagnostics, diagnostics.contains("must be a number > 0"));
    // the RM and another application are unaffected
    MockAM ok = h.launch(h.submit("hare.weight=3"), nm);
    HareRm.askGpuTasks(ok, 1);
    assertEquals(1, h.heartbeatAndPull(ok, nm).size());
  }

  /**
   * Security: a weight written by hand as a tag (no Hare client) is clamped to the admin's cap
   * before the policy sees it, so claiming a huge weight buys no priority. Two jobs want the one
   * GPU: "greedy" claims the largest weight a tag may carry but has 100 rounds, "modest" claims 1
   * and has one round. With a cap of 1 both weigh 1 and Smith's rule runs the short job first;
   * without an effective cap the claimed weight would put the long job first.
   */
  @Test(timeout = 300_000)
  public void aHandWrittenHugeWeightIsClampedAndBuysNoPriority() throws Exception {
    assertEquals("modest", firstOnTheGpu("1"));
    assertEquals("the test can fail: uncapped, the claim wins", "greedy",
        firstOnTheGpu("1000000"));
  }

  private String firstOnTheGpu(String weightMax) throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.WEIGHT_MAX, weightMax);
    h = HareRm.start(conf);
    try {
      MockNM nm = h.node("h1:1234", 1);
      // each AM launched before the next submission: MockRM launches one attempt at a time
      RMApp greedy = h.submit("hare.weight=1000000", "hare.rounds=100", "hare.tasks-per-round=1");
      MockAM g = h.launch(greedy, nm);
      MockAM m = h.launch(h.submit("hare.weight=1", "hare.rounds=1", "hare.tasks-per-round=1"),
          nm);
      assertEquals(Double.parseDouble(weightMax), h.scheduler().weight(greedy.getApplicationId()),
          0);
      HareRm.askGpuTasks(g, 1);
      HareRm.askGpuTasks(m, 1);
      List<Container> toGreedy = h.heartbeatAndPull(g, nm);
      List<Container> toModest = h.heartbeatAndPull(m, nm);
      assertEquals("one GPU, one task", 1, toGreedy.size() + toModest.size());
      return toGreedy.isEmpty() ? "modest" : "greedy";
    } finally {
      h.close();
      h = null;
    }
  }

  /**
   * Tags at the edge of what is allowed (the largest rounds and tasks per round, the smallest
   * positive weight, the largest weight) are admitted and harm no one: a plain job submitted
   * next to them gets its GPU, and so does the extreme job.
   */
  @Test(timeout = 300_000)
  public void extremeButValidTagsAreAdmittedAndOthersStillRun() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    RMApp huge = h.submit("hare.rounds=100000000", "hare.tasks-per-round=100000",
        "hare.weight=1000000", "hare.model=" + "m".repeat(64));
    MockAM hugeAm = h.launch(huge, nm);
    RMApp tiny = h.submit("hare.weight=4.9e-324", "hare.rounds=1", "hare.tasks-per-round=1");
    MockAM tinyAm = h.launch(tiny, nm);
    assertEquals("clamped to the default cap", SchedulerKeys.DEFAULT_WEIGHT_MAX,
        h.scheduler().weight(huge.getApplicationId()), 0);
    assertEquals(Double.MIN_VALUE, h.scheduler().weight(tiny.getApplicationId()), 0);
    // one round: a job with a round to come would keep its GPU across its sync (a hold)
    MockAM plain = h.launch(h.submit("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(hugeAm, 1);
    HareRm.askGpuTasks(tinyAm, 1);
    HareRm.askGpuTasks(plain, 1);
    List<Container> p = h.heartbeatAndPull(plain, nm);
    List<Container> x = h.heartbeatAndPull(hugeAm, nm);
    List<Container> t = h.heartbeatAndPull(tinyAm, nm);
    assertEquals("2 GPUs for the plain and the huge job first", List.of(1, 1, 0),
        List.of(p.size(), x.size(), t.size()));
    h.finish(nm, p.get(0));
    assertEquals("the tiny weight runs when a GPU frees", 1, h.heartbeatAndPull(tinyAm, nm)
        .size());
  }

  /**
   * An AM of no declared size asking for as many one-GPU containers as two asks can hold (their
   * sum overflows an int) keeps the RM answering under every policy, beside a small Hare job:
   * the two GPUs are placed as the policy says (a gang policy never starts a job wanting more
   * GPUs than the cluster has; under {@code hare} Smith's rule puts the one-task job first), and
   * placed again as they free. Before the cap the first heartbeat ran the RM's dispatcher out
   * of memory (the placer sized a buffer by the ask), which stops a real RM.
   */
  @Test(timeout = 300_000)
  public void asksForBillionsOfGpuContainersHurtNoOne() throws Exception {
    for (String name : Policies.names()) {
      YarnConfiguration conf = HareRm.conf();
      conf.set(SchedulerKeys.POLICY, name);
      try (HareRm rm = HareRm.start(conf)) {
        // the gang policies (Gavel, Tiresias, AlloX, SRTF) start a job's tasks all together
        boolean gang = rm.scheduler().policy().getClass().getPackageName()
            .equals("io.hare.core.policy.gang");
        MockNM nm = rm.node("h1:1234", 2);
        MockAM greedy = rm.launch(rm.submit(), nm);
        MockAM plain = rm.launch(rm.submit("hare.rounds=1", "hare.tasks-per-round=1"), nm);
        greedy.allocate(List.of(
            ResourceRequest.newInstance(Priority.newInstance(1), ResourceRequest.ANY,
                HareRm.resource(1024, 1, 1), Integer.MAX_VALUE),
            ResourceRequest.newInstance(Priority.newInstance(2), ResourceRequest.ANY,
                HareRm.resource(1024, 1, 1), Integer.MAX_VALUE)), List.of());
        HareRm.askGpuTasks(plain, 1);
        List<Container> g = rm.heartbeatAndPull(greedy, nm);
        List<Container> p = rm.heartbeatAndPull(plain, nm);
        if (gang) {
          assertEquals(name + ": the small job", List.of(0, 1), List.of(g.size(), p.size()));
          continue;
        }
        assertEquals(name + ": both GPUs placed (greedy " + g.size() + ")", 2,
            g.size() + p.size());
        if (name.equals("hare")) {
          assertEquals("Smith's rule: the one-task job before the job of unknown size", 1,
              p.size());
        }
        for (Container c : g) {
          rm.finish(nm, c);
        }
        int again = rm.heartbeatAndPull(greedy, nm).size();
        assertEquals(name + ": the freed GPUs placed again (greedy " + again + ")", g.size(),
            again + rm.heartbeatAndPull(plain, nm).size());
      }
    }
  }
}
