package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNotSame;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.service.Service.STATE;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * ResourceManager high availability, as Hadoop's TestRMHA drives it (manual failover through the
 * RM's admin service): an RM that goes standby stops its scheduler, and the RM makes a new one
 * for its next term as active. The new scheduler must start where the old one left its shared
 * state (the metrics source's name, the scheduler page's registration, the re-plan thread) and
 * place GPU tasks; the old one must leave nothing running.
 */
public class HareHaTest {

  private static final StateChangeRequestInfo BY_USER =
      new StateChangeRequestInfo(HAServiceProtocol.RequestSource.REQUEST_BY_USER);

  private HareRm rm;

  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    if (rm != null) {
      rm.close();
    }
  }

  /**
   * Two RMs, this one rm1, failover by hand (no elector), as TestRMHA sets them up; the RM's own
   * scheduler class, whose re-plans run on their thread.
   */
  static YarnConfiguration haConf() {
    YarnConfiguration conf = HareRm.conf();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, HareScheduler.class, ResourceScheduler.class);
    conf.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
    conf.set(YarnConfiguration.RM_HA_IDS, "rm1,rm2");
    for (String key : YarnConfiguration.getServiceAddressConfKeys(conf)) {
      conf.set(HAUtil.addSuffix(key, "rm1"), "0.0.0.0:0");
      conf.set(HAUtil.addSuffix(key, "rm2"), "1.1.1.1:1");
    }
    conf.set(YarnConfiguration.RM_HA_ID, "rm1");
    conf.setBoolean(YarnConfiguration.AUTO_FAILOVER_ENABLED, false);
    return conf;
  }

  @Test(timeout = 300_000)
  public void aSchedulerMadeForTheNextActiveTermPlacesGpuTasksAndTheOldOneLeavesNothing()
      throws Exception {
    rm = HareRm.start(haConf());
    assertEquals(HAServiceState.STANDBY, rm.rm.getRMContext().getHAServiceState());

    rm.rm.getRMContext().getRMAdminService().transitionToActive(BY_USER);
    HareScheduler first = rm.scheduler();
    assertEquals(STATE.STARTED, first.getServiceState());
    assertEquals("both GPUs of the node run tasks", 2, runTwoTasks("h1:1234"));
    refuseOneApplication();
    assertEquals(1, first.hareMetrics().rejectedApps());
    assertEquals("the metrics published are the scheduler's", 1, publishedRejectedApps());

    rm.rm.getRMContext().getRMAdminService().transitionToStandby(BY_USER);
    assertEquals(HAServiceState.STANDBY, rm.rm.getRMContext().getHAServiceState());
    assertEquals("the scheduler of the ended term is stopped", STATE.STOPPED,
        first.getServiceState());
    waitForReplanThreadsAtMost(0); // the next scheduler is made, not started

    rm.rm.getRMContext().getRMAdminService().transitionToActive(BY_USER);
    HareScheduler second = rm.scheduler();
    assertNotSame("the RM makes a new scheduler for a new term", first, second);
    assertEquals(STATE.STARTED, second.getServiceState());
    assertEquals("the new active RM's scheduler places GPU tasks", 2, runTwoTasks("h2:1234"));
    refuseOneApplication();
    refuseOneApplication();
    assertEquals(2, second.hareMetrics().rejectedApps());
    assertEquals("the metrics published are the new scheduler's, not the stopped one's", 2,
        publishedRejectedApps());
    assertEquals("the new scheduler sees only its own term's tasks", 2, second.runningGpuTasks());
    waitForReplanThreadsAtMost(1);
  }

  /**
   * A node with 2 GPUs and a Hare job asking 3 tasks: how many were placed once two were (the
   * first passes may come while the arrival's re-plan runs on its thread).
   */
  private int runTwoTasks(String node) throws Exception {
    MockNM nm = rm.node(node, 2);
    RMApp app = rm.submitHare("hare.rounds=1", "hare.tasks-per-round=3");
    MockAM am = rm.launch(app, nm);
    HareRm.askGpuTasks(am, 3);
    List<Container> placed = rm.heartbeatUntil(am, 2, nm);
    placed.addAll(rm.heartbeatAndPull(am, nm)); // a third would show here
    for (Container c : placed) {
      assertEquals(1, HareRm.gpus(c));
      assertEquals(nm.getNodeId(), c.getNodeId());
    }
    return placed.size();
  }

  /** An application whose Hare tags are malformed: the scheduler refuses it and counts it. */
  private void refuseOneApplication() throws Exception {
    RMApp bad = MockRMAppSubmitter.submit(rm.rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, rm.rm).withApplicationTags(Set.of("hare.weight=heavy"))
        .withWaitForAppAcceptedState(false).build());
    rm.rm.waitForState(bad.getApplicationId(), RMAppState.FAILED);
  }

  /** Rejected applications as the metrics system reads them from Hare's registered source. */
  private static long publishedRejectedApps() {
    MetricsSource source = DefaultMetricsSystem.instance().getSource(HareSchedulerMetrics.NAME);
    assertNotNull("Hare's metrics source is registered", source);
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    for (MetricsRecord r : collector.getRecords()) {
      for (AbstractMetric m : r.metrics()) {
        if (m.name().equals("RejectedApps")) {
          return m.value().longValue();
        }
      }
    }
    throw new AssertionError("no RejectedApps in Hare's metrics");
  }

  /** Waits until at most {@code n} re-plan threads are alive (a stopped scheduler's ends). */
  private static void waitForReplanThreadsAtMost(int n) throws Exception {
    try {
      GenericTestUtils.waitFor(() -> replanThreads() <= n, 50, 60_000);
    } catch (TimeoutException e) {
      throw new AssertionError("re-plan threads still alive: " + replanThreads(), e);
    }
  }

  private static long replanThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals("hare-replan")).count();
  }
}
