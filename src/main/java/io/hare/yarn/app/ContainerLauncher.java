package io.hare.yarn.app;

import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/**
 * The NodeManager side of the round protocol ({@code NMClientAsync}). Calls must not block; a
 * failed start is reported back through {@link RoundProtocol#onStartFailed}.
 */
public interface ContainerLauncher {

  void startContainer(Container container, ContainerLaunchContext context);

  /**
   * Tells the container's NodeManager its new resource and token
   * ({@code updateContainerResourceAsync}): a standby container the scheduler has just given
   * its GPU.
   */
  void updateResource(Container container);
}
