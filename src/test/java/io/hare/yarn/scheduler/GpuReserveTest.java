package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * Work without GPUs leaves a GPU node what its free GPUs' tasks need: by default the largest
 * one-GPU task asked for, per free GPU; ApplicationMasters are placed regardless.
 */
public class GpuReserveTest extends MockRmTestCase {

  /**
   * One node (16 GB, 16 vcores, 4 GPUs), two AMs (1 GB, 1 vcore each), one GPU task of 1 GB and
   * 1 vcore running: 13 GB and 13 vcores unallocated, 3 GPUs free. A plain application then
   * asks 20 containers of 1 GB and 1 vcore without a GPU; how many does it get?
   */
  private int nonGpuContainersBesideThreeFreeGpus(YarnConfiguration conf) throws Exception {
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    MockAM hare = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(hare, 1);
    assertEquals(1, h.heartbeatAndPull(hare, nm).size());
    HareRm.askGpuTasks(hare, 0);
    MockAM plain = h.launch(h.submit(), nm); // an AM: placed whatever the reserve
    plain.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(1),
        ResourceRequest.ANY, HareRm.resource(1024, 1, 0), 20)), List.of());
    int got = h.heartbeatAndPull(plain, nm).size();
    assertEquals("nothing more on the next heartbeat", 0, h.heartbeatAndPull(plain, nm).size());
    return got;
  }

  @Test(timeout = 300_000)
  public void byDefaultEachFreeGpuKeepsWhatTheLargestGpuTaskAskedFor() throws Exception {
    // 13 GB less 3 x 1 GB for the free GPUs
    assertEquals(10, nonGpuContainersBesideThreeFreeGpus(HareRm.conf()));
  }

  /**
   * Before any GPU task is asked for (an idle cluster, a restarted RM) each free GPU keeps the
   * minimum allocation: one node (16 GB, 16 vcores, 4 GPUs), one AM of 1 GB, then 20 plain
   * containers of 1 GB asked for.
   */
  @Test(timeout = 300_000)
  public void beforeAnyGpuAskEachFreeGpuKeepsTheMinimumAllocation() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    assertEquals(1024, conf.getInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
        YarnConfiguration.DEFAULT_RM_SCHEDULER_MINIMUM_ALLOCATION_MB));
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    MockAM plain = h.launch(h.submit(), nm);
    plain.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(1),
        ResourceRequest.ANY, HareRm.resource(1024, 1, 0), 20)), List.of());
    // 15 GB less 4 x 1 GB for the four free GPUs
    assertEquals(11, h.heartbeatAndPull(plain, nm).size());
    assertEquals("nothing more on the next heartbeat", 0, h.heartbeatAndPull(plain, nm).size());
  }

  @Test(timeout = 300_000)
  public void aReserveOfZeroLetsNonGpuWorkTakeTheNode() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setLong(SchedulerKeys.NON_GPU_RESERVE_MEMORY_MB, 0);
    conf.setLong(SchedulerKeys.NON_GPU_RESERVE_VCORES, 0);
    assertEquals(13, nonGpuContainersBesideThreeFreeGpus(conf));
  }

  @Test(timeout = 300_000)
  public void aConfiguredReserveIsKeptPerFreeGpu() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setLong(SchedulerKeys.NON_GPU_RESERVE_MEMORY_MB, 3072);
    conf.setLong(SchedulerKeys.NON_GPU_RESERVE_VCORES, 0);
    // 13 GB less 3 x 3 GB
    assertEquals(4, nonGpuContainersBesideThreeFreeGpus(conf));
  }
}
