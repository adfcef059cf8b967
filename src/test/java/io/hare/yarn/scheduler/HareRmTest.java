package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.service.Service;
import org.junit.Test;

/**
 * The test helper's isolation: an RM whose test was abandoned (a timeout leaves the test's thread
 * running and its {@code @After} sees no RM) does not outlive the next test's start, and a
 * stopped RM leaves no metrics source behind.
 */
public class HareRmTest {

  @Test(timeout = 300_000)
  public void anRmAnAbandonedTestStartedIsStoppedByTheNextStart() throws Exception {
    // as JUnit runs a test under a timeout: on its own thread, which nobody stops
    ExecutorService abandoned = Executors.newSingleThreadExecutor();
    HareRm left = abandoned.submit(() -> HareRm.start(HareRm.conf())).get(240, TimeUnit.SECONDS);
    abandoned.shutdown();
    try (HareRm next = HareRm.start(HareRm.conf())) {
      assertEquals(Service.STATE.STOPPED, left.rm.getServiceState());
      assertEquals(Service.STATE.STARTED, next.rm.getServiceState());
      assertNotNull("the new RM's scheduler metrics are registered",
          DefaultMetricsSystem.instance().getSource(HareSchedulerMetrics.NAME));
    }
  }

  @Test(timeout = 300_000)
  public void aStoppedRmLeavesNoMetricsSource() {
    try (HareRm rm = HareRm.start(HareRm.conf())) {
      assertNotNull(DefaultMetricsSystem.instance().getSource(HareSchedulerMetrics.NAME));
    }
    assertNull(DefaultMetricsSystem.instance().getSource(HareSchedulerMetrics.NAME));
  }
}
