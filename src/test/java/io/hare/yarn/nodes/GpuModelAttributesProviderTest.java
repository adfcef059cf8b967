package io.hare.yarn.nodes;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.yarn.GpuDevices;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor;
import org.junit.Test;

/**
 * The NodeManager provider publishes nm.yarn.io/gpu-model from the NM's own configuration, or
 * from the shipped script (run against a fake nvidia-smi), and refuses to start without a model.
 */
public class GpuModelAttributesProviderTest {

  private static Set<NodeAttribute> descriptorsOf(YarnConfiguration conf) throws Exception {
    GpuModelAttributesProvider p = new GpuModelAttributesProvider();
    p.init(conf);
    p.start();
    try {
      return p.getDescriptors();
    } finally {
      p.stop();
    }
  }

  private static void assertModel(Set<NodeAttribute> got, String name, String model) {
    assertEquals(got.toString(), 2, got.size());
    assertAttribute(got, name, model);
    assertAttribute(got, GpuDevices.ISOLATION_ATTRIBUTE, "false"); // no GPU plugin in the conf
  }

  private static void assertAttribute(Set<NodeAttribute> got, String name, String value) {
    NodeAttribute a = got.stream().filter(x -> x.getAttributeKey().getAttributeName()
        .equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + got));
    assertEquals(NodeAttribute.PREFIX_DISTRIBUTED, a.getAttributeKey().getAttributePrefix());
    assertEquals(NodeAttributeType.STRING, a.getAttributeType());
    assertEquals(value, a.getAttributeValue());
  }

  @Test(timeout = 60_000)
  public void gpusAreIsolatedOnlyUnderYarnsGpuPluginAndTheLinuxExecutor() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(GpuModelAttributesProvider.MODEL, "t4");
    conf.set(YarnConfiguration.NM_RESOURCE_PLUGINS, "yarn.io/fpga, yarn.io/gpu");
    assertFalse("the default executor isolates nothing",
        GpuDevices.isolatedBy(conf));
    conf.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, LinuxContainerExecutor.class.getName());
    assertAttribute(descriptorsOf(conf), GpuDevices.ISOLATION_ATTRIBUTE, "true");
    conf.set(YarnConfiguration.NM_RESOURCE_PLUGINS, "yarn.io/fpga");
    assertFalse("no GPU plugin", GpuDevices.isolatedBy(conf));
  }

  @Test(timeout = 60_000)
  public void theConfiguredModelWinsOverTheScript() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(GpuModelAttributesProvider.MODEL, " V100 ");
    conf.set(GpuModelAttributesProvider.SCRIPT_PATH, "/nonexistent/script.sh");
    assertModel(descriptorsOf(conf), "gpu-model", "v100");
  }

  @Test(timeout = 60_000)
  public void theShippedScriptGivesTheModelThroughTheProvider() throws Exception {
    Path smiDir = GpuModelScriptTest.fakeSmi("smi-provider",
        "Tesla V100-SXM2-16GB\nTesla V100-SXM2-16GB\n", 0);
    // the NM runs the script with its own environment: point it at the fake nvidia-smi
    File wrapper = GenericTestUtils.getTestDir("gpu-model-wrapper.sh");
    Files.writeString(wrapper.toPath(), "#!/usr/bin/env bash\nexport NVIDIA_SMI='"
        + smiDir.resolve("nvidia-smi") + "' HARE_GPU_ATTRIBUTE=gpu-kind\nexec '"
        + GpuModelScriptTest.SCRIPT + "'\n");
    assertTrue(wrapper.setExecutable(true));
    YarnConfiguration conf = new YarnConfiguration();
    conf.set("yarn.scheduler.hare.gpu-type.attribute", "gpu-kind"); // the RM's attribute name
    conf.set(GpuModelAttributesProvider.SCRIPT_PATH, wrapper.getAbsolutePath());
    assertModel(descriptorsOf(conf), "gpu-kind", "v100");
  }

  @Test(timeout = 60_000)
  public void aFailingScriptLeavesNoModelAndDoesNotStopTheProvider() throws Exception {
    Path smiDir = GpuModelScriptTest.fakeSmi("smi-provider-failing", "", 6);
    File wrapper = GenericTestUtils.getTestDir("gpu-model-failing.sh");
    Files.writeString(wrapper.toPath(), "#!/usr/bin/env bash\nexport NVIDIA_SMI='"
        + smiDir.resolve("nvidia-smi") + "'\nexec '" + GpuModelScriptTest.SCRIPT + "'\n");
    assertTrue(wrapper.setExecutable(true));
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(GpuModelAttributesProvider.SCRIPT_PATH, wrapper.getAbsolutePath());
    assertEquals(Set.of(), descriptorsOf(conf));
  }

  @Test(timeout = 60_000)
  public void theProviderRefusesToStartWithoutAValidModel() {
    YarnConfiguration none = new YarnConfiguration();
    assertInitFails(none, GpuModelAttributesProvider.MODEL, GpuModelAttributesProvider.SCRIPT_PATH);
    YarnConfiguration bad = new YarnConfiguration();
    bad.set(GpuModelAttributesProvider.MODEL, "Tesla V100");
    assertInitFails(bad, GpuModelAttributesProvider.MODEL, "tesla v100");
    YarnConfiguration missing = new YarnConfiguration();
    missing.set(GpuModelAttributesProvider.SCRIPT_PATH, "/nonexistent/hare-gpu-model.sh");
    assertInitFails(missing, GpuModelAttributesProvider.SCRIPT_PATH, "not an executable file");
  }

  private static void assertInitFails(YarnConfiguration conf, String... words) {
    GpuModelAttributesProvider p = new GpuModelAttributesProvider();
    try {
      p.init(conf);
      fail("started");
    } catch (RuntimeException e) {
      StringBuilder chain = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        chain.append('\n').append(t.getMessage());
      }
      for (String w : words) {
        assertTrue(chain.toString(), chain.toString().contains(w));
      }
    }
  }
}
