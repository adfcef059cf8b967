package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.After;
import org.junit.Test;

/**
 * Applications are admitted from their tags: weights capped by the admin, a malformed tag
 * rejects that application alone with a diagnostic the user sees, and others still run.
 */
public class HareAdmissionTest {

  private HareRm h;

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test(timeout = 60_000)
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

  @Test(timeout = 60_000)
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
}
