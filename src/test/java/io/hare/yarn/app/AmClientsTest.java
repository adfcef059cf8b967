package io.hare.yarn.app;

import static org.junit.Assert.assertFalse;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.client.api.impl.NMClientImpl;
import org.junit.Test;

/** The real YARN clients the AM runs with. */
public class AmClientsTest {

  /**
   * A stopping AM does not stop its task containers one by one: after a node loss, the stop of
   * a container on the vanished node waited out the NodeManager connect timeout (3 min) and kept
   * the finished job's AM alive in FINISHING (FaultsIT's node loss showed it). YARN kills an
   * ended application's containers itself.
   */
  @Test(timeout = 60_000)
  public void theNodeManagerClientLeavesContainersToYarnWhenTheAmStops() {
    NMClientAsync nm = AmClients.yarn(100).nodeManagers(
        new NMClientAsync.AbstractCallbackHandler() {
          @Override
          public void onContainerStarted(ContainerId id, Map<String, ByteBuffer> data) {}

          @Override
          public void onContainerStatusReceived(ContainerId id, ContainerStatus status) {}

          @Override
          public void onContainerStopped(ContainerId id) {}

          @Override
          public void onStartContainerError(ContainerId id, Throwable t) {}

          @Override
          public void onContainerResourceIncreased(ContainerId id, Resource r) {}

          @Override
          public void onContainerResourceUpdated(ContainerId id, Resource r) {}

          @Override
          public void onGetContainerStatusError(ContainerId id, Throwable t) {}

          @Override
          public void onIncreaseContainerResourceError(ContainerId id, Throwable t) {}

          @Override
          public void onUpdateContainerResourceError(ContainerId id, Throwable t) {}

          @Override
          public void onStopContainerError(ContainerId id, Throwable t) {}
        });
    assertFalse(((NMClientImpl) nm.getClient()).getCleanupRunningContainers().get());
  }
}
