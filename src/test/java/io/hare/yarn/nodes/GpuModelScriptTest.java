package io.hare.yarn.nodes;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;

/**
 * {@code dist/sbin/hare-gpu-model.sh} against a fake {@code nvidia-smi} on the PATH: the
 * normalisation rule on real nvidia-smi names, the most common model on a mixed node (warned on
 * stderr), and exit 1 with nothing on stdout when nvidia-smi fails.
 */
public class GpuModelScriptTest {

  static final File SCRIPT = new File("dist/sbin/hare-gpu-model.sh").getAbsoluteFile();

  /** A directory holding an nvidia-smi that prints {@code names} and exits {@code exit}. */
  static Path fakeSmi(String dir, String names, int exit) throws IOException {
    Path d = GenericTestUtils.getTestDir(dir).toPath();
    Files.createDirectories(d);
    Path data = d.resolve("names.txt");
    Files.writeString(data, names);
    Path smi = d.resolve("nvidia-smi");
    Files.writeString(smi, "#!/usr/bin/env bash\n"
        + "[ \"$*\" = '--query-gpu=name --format=csv,noheader' ] || exit 9\n"
        + "cat '" + data + "'\nexit " + exit + "\n");
    assertTrue(smi.toFile().setExecutable(true));
    return d;
  }

  record Result(int exit, String out, String err) {}

  private static final String NOT_ISOLATED = "NODE_ATTRIBUTE:gpu-isolation,STRING,false\n";

  @Test(timeout = 60_000)
  public void gpusAreIsolatedWhereYarnSiteHasTheGpuPluginAndTheLinuxExecutor() throws Exception {
    Path smi = fakeSmi("smi-isolated", "Tesla T4\n", 0);
    Path conf = Files.createDirectories(smi.resolve("conf"));
    String plugin = "<property>\n  <name>yarn.nodemanager.resource-plugins</name>\n"
        + "  <value>yarn.io/fpga, yarn.io/gpu</value>\n</property>\n";
    String executor = "<property><name>yarn.nodemanager.container-executor.class</name>"
        + "<value>org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor</value>"
        + "</property>\n";
    Files.writeString(conf.resolve("yarn-site.xml"), "<configuration>\n" + plugin + executor
        + "</configuration>\n");
    assertEquals("NODE_ATTRIBUTE:gpu-model,STRING,t4\n"
        + "NODE_ATTRIBUTE:gpu-isolation,STRING,true\n", run(smi, conf).out());
    Files.writeString(conf.resolve("yarn-site.xml"), "<configuration>\n" + plugin
        + "</configuration>\n");
    assertEquals("the default executor isolates nothing",
        "NODE_ATTRIBUTE:gpu-model,STRING,t4\n" + NOT_ISOLATED, run(smi, conf).out());
  }

  static Result run(Path smiDir) throws Exception {
    return run(smiDir, smiDir); // no yarn-site.xml there
  }

  /** Runs the script with {@code confDir} as HADOOP_CONF_DIR. */
  static Result run(Path smiDir, Path confDir) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.getPath());
    pb.environment().put("PATH", smiDir + File.pathSeparator + System.getenv("PATH"));
    pb.environment().put("HADOOP_CONF_DIR", confDir.toString());
    pb.environment().remove("NVIDIA_SMI");
    pb.environment().remove("HARE_GPU_ATTRIBUTE");
    pb.environment().remove("HARE_GPU_ISOLATION");
    File err = File.createTempFile("hare-gpu-model", ".err");
    pb.redirectError(err);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue("script hung", p.waitFor(30, TimeUnit.SECONDS));
    String e = Files.readString(err.toPath());
    Files.delete(err.toPath());
    return new Result(p.exitValue(), out, e);
  }

  private static void assertModel(String nvidiaName, String model) throws Exception {
    Result r = run(fakeSmi("smi-one", nvidiaName + "\n", 0));
    assertEquals(r.err(), 0, r.exit());
    assertEquals(nvidiaName, "NODE_ATTRIBUTE:gpu-model,STRING," + model + "\n"
        + NOT_ISOLATED, r.out());
  }

  @Test(timeout = 60_000)
  public void nvidiaNamesAreNormalisedToShortModels() throws Exception {
    assertModel("Tesla V100-SXM2-16GB", "v100");
    assertModel("NVIDIA A100-SXM4-40GB", "a100");
    assertModel("Tesla T4", "t4");
    assertModel("Tesla K80", "k80");
    assertModel("NVIDIA H100 80GB HBM3", "h100");
    assertModel("NVIDIA GeForce RTX 3090", "rtx-3090");
    assertModel("NVIDIA RTX A6000", "rtx-a6000");
  }

  @Test(timeout = 60_000)
  public void aMixedNodeReportsTheMostCommonModelWithAWarning() throws Exception {
    Result r = run(fakeSmi("smi-mixed",
        "Tesla T4\nTesla V100-SXM2-16GB\nTesla V100-SXM2-32GB\n", 0));
    assertEquals(r.err(), 0, r.exit());
    assertEquals("NODE_ATTRIBUTE:gpu-model,STRING,v100\n" + NOT_ISOLATED, r.out());
    assertTrue(r.err(), r.err().contains("mixed GPU models on this node (v100 x2, t4 x1)"));
  }

  @Test(timeout = 60_000)
  public void aFailingNvidiaSmiPrintsNothingAndExitsOne() throws Exception {
    Result r = run(fakeSmi("smi-failing", "NVIDIA-SMI has failed\n", 6));
    assertEquals(1, r.exit());
    assertEquals("", r.out());
    assertTrue(r.err(), r.err().contains("failed or is missing"));
    Result none = run(fakeSmi("smi-none", "", 0));
    assertEquals(1, none.exit());
    assertEquals("", none.out());
  }
}
