package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster;
import org.apache.hadoop.yarn.applications.distributedshell.Client;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * YARN's own distributedshell, unchanged, beside the Hare scheduler on an
 * {@link EmbeddedCluster} of two nodes of two GPUs: one application asks eight one-GPU
 * containers (the policy places them, four at a time); while they hold every GPU another asks
 * two containers of two GPUs each, served whole on one node (a node is reserved for one as its
 * GPUs free; {@code MultiGpuContainersTest} checks the reservation's rules). Both succeed:
 * every container ran its command and exited 0, and every GPU is free at the end.
 */
public class DistributedShellIT {

  private static final String ONE = "hare-it-one-gpu";
  private static final String TWO = "hare-it-two-gpu";
  private static final List<String> NAMES = List.of(ONE, TWO);

  private static EmbeddedCluster hare;

  @BeforeClass
  public static void startCluster() throws Exception {
    hare = EmbeddedCluster.start(GenericTestUtils.getTestDir("DistributedShellIT"),
        "DistributedShellIT", List.of(new EmbeddedCluster.Node("v100", 2),
            new EmbeddedCluster.Node("v100", 2)), new Configuration(false));
  }

  @AfterClass
  public static void stopCluster() {
    if (hare != null) {
      hare.close();
    }
    // the client stages the AM's jar under the user's home directory, by application name
    for (String name : NAMES) {
      FileUtil.fullyDelete(new File(System.getProperty("user.home"), name));
    }
  }

  private static String amJar() throws URISyntaxException {
    return Paths.get(ApplicationMaster.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI()).toString();
  }

  /** Runs one distributedshell application to its end; whether it succeeded. */
  private static boolean shell(String name, int containers, int gpus, int sleepS)
      throws Exception {
    Client client = new Client(new YarnConfiguration(hare.conf()));
    boolean ok = client.init(new String[] {"--jar", amJar(), "--appname", name,
        "--shell_command", "sleep " + sleepS, "--num_containers", String.valueOf(containers),
        "--container_resources", "memory-mb=256,vcores=1,yarn.io/gpu=" + gpus,
        "--master_memory", "256", "--timeout", "480000"});
    assertTrue(name + ": the client took its options", ok);
    return client.run();
  }

  private static long gpusAllocated() {
    return hare.rm().getResourceScheduler().getRootQueueMetrics().getAllocatedResources()
        .getResourceValue(EmbeddedCluster.GPU);
  }

  @Test(timeout = 600_000)
  public void oneAndTwoGpuContainersOfStockApplicationsAreServedTogether() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      // eight one-GPU containers: four run while four wait, when the two-GPU one arrives
      Future<Boolean> single = pool.submit(() -> shell(ONE, 8, 1, 5));
      GenericTestUtils.waitFor(() -> gpusAllocated() == 4, 100, 300_000);
      Future<Boolean> pairs = pool.submit(() -> shell(TWO, 2, 2, 2));
      assertTrue("the one-GPU application succeeded", single.get(540, TimeUnit.SECONDS));
      assertTrue("the two-GPU application succeeded", pairs.get(540, TimeUnit.SECONDS));
    } finally {
      pool.shutdownNow();
    }
    assertEquals("every GPU free again", 0, gpusAllocated());
  }
}
