package io.hare.yarn.scheduler;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.junit.Test;

/**
 * Metrics as the RM UI, REST and JMX read them: the default queue's {@link QueueMetrics}
 * (allocated, pending and available memory, vcores and GPUs) and Hare's own metrics2 source.
 * One node of 16 GB, 16 vcores, 2 v100; an AM of 1 GB, 1 vcore; GPU tasks of 1 GB, 1 vcore,
 * 1 GPU.
 */
public class HareMetricsTest extends MockRmTestCase {

  private static final GpuType V100 = GpuType.of("v100");


  private static long gpus(Resource r) {
    return r.getResourceValue(HareRm.GPU);
  }

  @Test(timeout = 300_000)
  public void queueAndHareMetricsFollowTasks() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    h.setType("h1", "v100");
    MockAM am = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(am, 3);
    List<Container> got = h.heartbeatAndPull(am, nm);
    assertEquals(2, got.size());

    QueueMetrics q = h.scheduler().getRootQueueMetrics();
    assertEquals("AM + 2 tasks", 3 * 1024, q.getAllocatedMB());
    assertEquals(3, q.getAllocatedVirtualCores());
    assertEquals(2, gpus(q.getAllocatedResources()));
    assertEquals("1 task waits", 1024, q.getPendingMB());
    assertEquals(1, q.getPendingVirtualCores());
    assertEquals(1, gpus(q.getPendingResources()));
    assertEquals(16 * 1024 - 3 * 1024, q.getAvailableMB());
    assertEquals(16 - 3, q.getAvailableVirtualCores());
    assertEquals(0, gpus(q.getAvailableResources()));

    HareSchedulerMetrics m = h.scheduler().hareMetrics();
    assertEquals(1, m.pending());
    assertEquals(2, m.running());
    assertArrayEquals("v100: 0 free, 2 used", new int[] {0, 2}, m.gpus(V100));

    h.finish(nm, got.get(0));
    nm.nodeHeartbeat(true); // the freed GPU takes the waiting task
    h.rm.drainEvents();
    assertEquals(0, m.pending());
    assertEquals(2, m.running());
    assertEquals(0, q.getPendingMB());
    assertEquals(0, gpus(q.getPendingResources()));

    h.finish(nm, got.get(1));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals(1, m.running());
    assertArrayEquals("v100: 1 free, 1 used", new int[] {1, 1}, m.gpus(V100));
    assertEquals(1, gpus(q.getAllocatedResources()));
    assertEquals(1, gpus(q.getAvailableResources()));
    assertEquals(16 * 1024 - 2 * 1024, q.getAvailableMB());
  }

  @Test(timeout = 300_000)
  public void rejectedApplicationsAndReplansAreCounted() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    HareSchedulerMetrics m = h.scheduler().hareMetrics();
    assertNotNull("registered in metrics2 (JMX, sinks)",
        DefaultMetricsSystem.instance().getSource(HareSchedulerMetrics.NAME));
    RMApp bad = MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withApplicationTags(Set.of("hare.weight=heavy"))
        .withWaitForAppAcceptedState(false).build());
    h.rm.waitForState(bad.getApplicationId(), RMAppState.FAILED);
    assertEquals(1, m.rejectedApps());

    MockAM am = h.launch(h.submit("hare.rounds=1", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(am, 2);
    assertEquals(2, h.heartbeatAndPull(am, nm).size());
    assertTrue("the hare policy re-planned at the arrival", m.replans() >= 1);
    assertEquals(h.scheduler().replans(), m.replans());
  }
}
