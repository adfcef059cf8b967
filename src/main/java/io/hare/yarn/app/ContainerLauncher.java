package io.hare.yarn.app;

import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;

/**
 * The NodeManager side of the round protocol ({@code NMClientAsync.startContainerAsync}). Must
 * not block; a failed start is reported back through {@link RoundProtocol#onStartFailed}.
 */
public interface ContainerLauncher {

  void startContainer(Container container, ContainerLaunchContext context);
}
