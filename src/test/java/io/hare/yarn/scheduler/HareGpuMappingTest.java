package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.nodelabels.NodeAttributesManager;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * The admin's mapping file, registered centrally: hosts that register get
 * {@code rm.yarn.io/gpu-model} in the RM's attribute manager (what {@code yarn nodeattributes}
 * lists), placement follows it, a refresh with a bad file keeps the old mapping, and a refresh
 * with a new file moves and removes attributes.
 */
public class HareGpuMappingTest extends MockRmTestCase {

  private static File mapFile(String name, String text) throws IOException {
    File f = GenericTestUtils.getTestDir(name);
    Files.writeString(f.toPath(), text);
    return f;
  }

  private static YarnConfiguration conf(File map) throws IOException {
    File csv = GenericTestUtils.getTestDir("mapping-profiles.csv");
    Files.writeString(csv.toPath(), "model,gpu_type,compute_ms,sync_ms\n"
        + "cnn,v100,100,10\ncnn,k80,1000,10\n");
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.PROFILES_FILE, csv.getAbsolutePath());
    conf.set(SchedulerKeys.GPU_TYPE_MAPPING_FILE, map.getAbsolutePath());
    return conf;
  }

  /** rm.yarn.io attributes of a host, name=value, as {@code yarn nodeattributes} shows them. */
  private Map<String, String> central(String host) {
    NodeAttributesManager m = h.rm.getRMContext().getNodeAttributesManager();
    Map<String, String> out = new TreeMap<>();
    for (NodeAttribute a : m.getAttributesForNode(host).keySet()) {
      if (NodeAttribute.PREFIX_CENTRALIZED.equals(a.getAttributeKey().getAttributePrefix())) {
        out.put(a.getAttributeKey().getAttributeName(), a.getAttributeValue());
      }
    }
    return out;
  }

  @Test(timeout = 300_000)
  public void nodesThatRegisterGetTheirModelCentrallyAndPlacementUsesIt() throws Exception {
    h = HareRm.start(conf(mapFile("map1.txt",
        "# lab\ngpu-v100-* v100\ngpu-* k80   # everything else is old\n")));
    MockNM k80 = h.node("gpu-old-1:1234", 1);
    // an admin attribute of another name on the v100 host is kept
    h.rm.getRMContext().getNodeAttributesManager().addNodeAttributes(Map.of("gpu-v100-1",
        Set.of(NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED, "rack",
            NodeAttributeType.STRING, "r7"))));
    MockNM v100 = h.node("gpu-v100-1:1234", 1);
    h.rm.drainEvents();
    assertEquals(Map.of("gpu-model", "k80"), central("gpu-old-1"));
    assertEquals(Map.of("gpu-model", "v100", "rack", "r7"), central("gpu-v100-1"));
    assertEquals(GpuType.of("v100"), h.scheduler().gpuType(v100.getNodeId()));
    assertEquals(GpuType.of("k80"), h.scheduler().gpuType(k80.getNodeId()));
    MockAM am = h.launch(h.submit("hare.model=cnn"), k80);
    HareRm.askGpuTasks(am, 1);
    List<Container> got = h.heartbeatAndPull(am, k80); // only the k80 node heartbeats
    assertEquals(1, got.size());
    assertEquals(v100.getNodeId(), got.get(0).getNodeId());
  }

  @Test(timeout = 300_000)
  public void aRefreshWithABadFileFailsAndKeepsTheMapping() throws Exception {
    File map = mapFile("map2.txt", "n1 v100\nn2 v100\n");
    YarnConfiguration conf = conf(map);
    h = HareRm.start(conf);
    MockNM n1 = h.node("n1:1234", 1);
    MockNM n2 = h.node("n2:1234", 1);
    h.rm.drainEvents();
    Files.writeString(map.toPath(), "n1 k80\nn2\nn3 Tesla V100\n");
    try {
      h.scheduler().reinitialize(conf, h.rm.getRMContext()); // what rmadmin -refreshQueues does
      fail("refreshed with a bad mapping file");
    } catch (IOException e) {
      String m = e.getMessage();
      assertTrue(m, m.contains(SchedulerKeys.GPU_TYPE_MAPPING_FILE + ": " + map + ":2: "));
      assertTrue(m, m.contains(map + ":3: "));
    }
    h.rm.drainEvents();
    assertEquals(Map.of("gpu-model", "v100"), central("n1"));
    assertEquals(GpuType.of("v100"), h.scheduler().gpuType(n1.getNodeId()));
    // a good file: n1 changes model, n2 is no longer mapped and loses the attribute
    Files.writeString(map.toPath(), "n1 k80\nn3 t4\n");
    h.scheduler().reinitialize(conf, h.rm.getRMContext());
    h.rm.drainEvents();
    assertEquals(Map.of("gpu-model", "k80"), central("n1"));
    assertEquals(Map.of(), central("n2"));
    assertEquals(GpuType.of("k80"), h.scheduler().gpuType(n1.getNodeId()));
    assertEquals("no attribute: the default type",
        GpuType.of(SchedulerKeys.DEFAULT_GPU_TYPE_DEFAULT), h.scheduler().gpuType(n2.getNodeId()));
    MockNM n3 = h.node("n3:1234", 2); // registers after the refresh
    h.rm.drainEvents();
    assertEquals(GpuType.of("t4"), h.scheduler().gpuType(n3.getNodeId()));
  }

  @Test(timeout = 300_000)
  public void theResourceManagerRefusesToStartOnABadFile() throws Exception {
    File map = mapFile("map3.txt", "ok-host v100\nbad host line\n");
    try {
      h = HareRm.start(conf(map));
      fail("the RM started with a bad mapping file");
    } catch (RuntimeException e) {
      StringBuilder chain = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        chain.append('\n').append(t.getMessage());
      }
      assertTrue(chain.toString(), chain.toString().contains(
          SchedulerKeys.GPU_TYPE_MAPPING_FILE + ": " + map + ":2: expected 2 fields"));
    }
  }
}
