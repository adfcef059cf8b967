package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The AM gives each task the device the scheduler named on its container
 * ({@link io.hare.yarn.GpuDevices}): in a new container's environment, and on the runner's
 * {@code run} line for a promoted standby (whose environment was fixed without a GPU) and a warm
 * container's next task. A container without a device (YARN isolates the node's GPUs) gets
 * neither, so what YARN exposes stands.
 */
public class AmDevicesTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  @Test(timeout = 60_000)
  public void aNewContainersTaskSeesItsDeviceInItsEnvironment() throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 2, 1, false), 0);
    am.protocol.start();
    am.device = 3;
    am.allocate("v100-a", 1);
    am.device = -1; // as on a node where YARN isolates GPUs
    am.allocate("v100-b", 1);
    Map<String, String> named = am.started.get(1L);
    assertEquals("3", named.get("HARE_GPU_DEVICE"));
    assertEquals("3", named.get("CUDA_VISIBLE_DEVICES"));
    Map<String, String> yarns = am.started.get(2L);
    assertNull(yarns.get("HARE_GPU_DEVICE"));
    assertNull("YARN's own exposure is not overridden", yarns.get("CUDA_VISIBLE_DEVICES"));
  }

  @Test(timeout = 60_000)
  public void aPromotedStandbyAndAWarmContainersNextTaskAreToldTheirDevice() throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 3, 1, false), 0, true);
    am.protocol.start();
    Container standby = am.standby("v100-a");
    assertNull("no GPU yet", am.started.get(1L).get("CUDA_VISIBLE_DEVICES"));
    CompletableFuture<Optional<RunnerServer.Next>> answer =
        am.protocol.onRunnerReady(standby.getId());
    am.device = 2;
    Container promoted = am.promote(standby, 1);
    assertEquals(Optional.of(new RunnerServer.Next(0, 0, 2)), answer.getNow(null));
    assertEquals("the same device for the next task in it",
        Optional.of(new RunnerServer.Next(0, 1, 2)),
        am.protocol.onRunnerTaskEnded(promoted.getId(), 0));
  }

  @Test(timeout = 60_000)
  public void aWarmContainerWithoutADeviceLeavesItsEnvironmentAsItIs() throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(1, 2, 1, false), 0, true);
    am.protocol.start();
    Container c = am.allocate("v100-b", 1).get(0);
    assertFalse(am.started.get(c.getId().getContainerId()).containsKey("HARE_GPU_DEVICE"));
    assertEquals(Optional.of(new RunnerServer.Next(0, 1, -1)),
        am.protocol.onRunnerTaskEnded(c.getId(), 0));
  }
}
