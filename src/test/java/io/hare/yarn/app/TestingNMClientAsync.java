package io.hare.yarn.app;

import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;

/**
 * A scripted {@code NMClientAsync}: starts nothing, records "start N" in the shared log with the
 * launch context (and "update N" for a new container resource), and lets the test answer as the NodeManager would ({@link #started},
 * {@link #startFailed}). The other operations are not used by the Hare AM and throw.
 */
final class TestingNMClientAsync extends NMClientAsync {

  private final BlockingQueue<String> calls;
  /** Launch context of each started container, by container number. */
  final Map<Long, ContainerLaunchContext> contexts = new ConcurrentHashMap<>();

  TestingNMClientAsync(AbstractCallbackHandler handler, BlockingQueue<String> calls) {
    super(TestingNMClientAsync.class.getName(), null, handler);
    this.calls = calls;
  }

  @Override
  public void startContainerAsync(Container container, ContainerLaunchContext context) {
    contexts.put(container.getId().getContainerId(), context);
    calls.add("start " + container.getId().getContainerId());
  }

  void started(ContainerId id) {
    callbackHandler.onContainerStarted(id, Map.of());
  }

  void startFailed(ContainerId id, Throwable t) {
    callbackHandler.onStartContainerError(id, t);
  }

  @Override
  public void increaseContainerResourceAsync(Container container) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void updateContainerResourceAsync(Container container) {
    calls.add("update " + container.getId().getContainerId());
  }

  @Override
  public void reInitializeContainerAsync(ContainerId id, ContainerLaunchContext context,
      boolean autoCommit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void restartContainerAsync(ContainerId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void rollbackLastReInitializationAsync(ContainerId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void commitLastReInitializationAsync(ContainerId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void stopContainerAsync(ContainerId id, NodeId node) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void getContainerStatusAsync(ContainerId id, NodeId node) {
    throw new UnsupportedOperationException();
  }
}
