package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import java.io.File;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * GPU types come from node attributes and decide placement through the profiles: a model ten
 * times faster on v100 goes to the v100 node even when the k80 node heartbeats first, and an
 * attribute update moves the next task with the type.
 */
public class HareGpuTypesTest extends MockRmTestCase {

  private static YarnConfiguration withProfiles() throws Exception {
    File csv = GenericTestUtils.getTestDir("hare-profiles.csv");
    Files.writeString(csv.toPath(), "model,gpu_type,compute_ms,sync_ms\n"
        + "CNN,v100,100,10\n"
        + "CNN,k80,1000,10\n");
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.PROFILES_FILE, csv.getAbsolutePath());
    return conf;
  }

  @Test(timeout = 300_000)
  public void aModelMuchFasterOnV100GetsTheV100Node() throws Exception {
    h = HareRm.start(withProfiles());
    MockNM k80 = h.node("k80host:1234", 1);
    MockNM v100 = h.node("v100host:1234", 1);
    h.setType("k80host", "K80"); // case does not matter
    h.setType("v100host", "v100");
    assertEquals(GpuType.of("k80"), h.scheduler().gpuType(k80.getNodeId()));
    MockAM am = h.launch(h.submit("hare.model=cnn"), k80);
    HareRm.askGpuTasks(am, 1);
    List<Container> got = h.heartbeatAndPull(am, k80); // only the k80 node heartbeats
    assertEquals(1, got.size());
    assertEquals(v100.getNodeId(), got.get(0).getNodeId());
  }

  @Test(timeout = 300_000)
  public void anAttributeUpdateChangesTheTypeUsedForPlacement() throws Exception {
    h = HareRm.start(withProfiles());
    MockNM n1 = h.node("n1:1234", 1);
    MockNM n2 = h.node("n2:1234", 1);
    h.setType("n1", "v100");
    h.setType("n2", "k80");
    h.setType("n1", "k80"); // the admin corrects both nodes
    h.setType("n2", "v100");
    assertEquals(GpuType.of("v100"), h.scheduler().gpuType(n2.getNodeId()));
    MockAM am = h.launch(h.submit("hare.model=cnn"), n1);
    HareRm.askGpuTasks(am, 1);
    List<Container> got = h.heartbeatAndPull(am, n1, n2);
    assertEquals(1, got.size());
    assertEquals(n2.getNodeId(), got.get(0).getNodeId());
  }

  @Test(timeout = 300_000)
  public void aGpuNodeWithoutTheAttributeGetsTheDefaultType() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.GPU_TYPE_DEFAULT, "T4");
    h = HareRm.start(conf);
    MockNM plain = h.node("plain:1234", 2);
    MockNM cpuOnly = h.node("cpu:1234", 0);
    assertEquals(GpuType.of("t4"), h.scheduler().gpuType(plain.getNodeId()));
    assertEquals(null, h.scheduler().gpuType(cpuOnly.getNodeId()));
  }
}
