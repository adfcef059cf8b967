package io.hare.yarn.app;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;

/**
 * A scripted {@code AMRMClientAsync}, after Flink's {@code TestingYarnAMRMClientAsync}: talks to no
 * ResourceManager, records each call in a shared log ("register", "add", "remove", "release N",
 * "blacklist +HOST", "blacklist -HOST", "unregister STATUS: DIAGNOSTICS"), and the test plays YARN by calling {@link #handler()}'s
 * {@code onContainersAllocated} / {@code onContainersCompleted}. Progress is read from the
 * handler as the heartbeat thread would.
 */
final class TestingAMRMClientAsync extends AMRMClientAsync<ContainerRequest> {

  private final BlockingQueue<String> calls;

  TestingAMRMClientAsync(AbstractCallbackHandler handler, BlockingQueue<String> calls) {
    super(AMRMClient.createAMRMClient(), 0, handler);
    this.calls = calls;
  }

  AbstractCallbackHandler handler() {
    return (AbstractCallbackHandler) handler;
  }

  /** What the next heartbeat would report. */
  float progress() {
    return handler().getProgress();
  }

  @Override
  public RegisterApplicationMasterResponse registerApplicationMaster(String host, int port,
      String trackingUrl) {
    calls.add("register");
    return null; // the AM does not read it
  }

  @Override
  public void unregisterApplicationMaster(FinalApplicationStatus status, String diagnostics,
      String trackingUrl) {
    calls.add("unregister " + status + ": " + diagnostics);
  }

  /** Allocation request ids of the asks added and not removed, in order. */
  final List<Long> asked = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  public void addContainerRequest(ContainerRequest req) {
    asked.add(req.getAllocationRequestId()); // before the call is seen: tests act on it
    calls.add("add");
  }

  @Override
  public void removeContainerRequest(ContainerRequest req) {
    asked.remove(Long.valueOf(req.getAllocationRequestId()));
    calls.add("remove");
  }

  @Override
  public void releaseAssignedContainer(ContainerId id) {
    calls.add("release " + id.getContainerId());
  }

  @Override
  public List<? extends Collection<ContainerRequest>> getMatchingRequests(Priority priority,
      String resourceName, Resource capability) {
    return List.of();
  }

  @Override
  public void requestContainerUpdate(Container container, UpdateContainerRequest request) {
    // the AM's report that a warm container started its next task: a "decrease" to its own size
    boolean same = request.getCapability().equals(container.getResource());
    calls.add("task started in " + container.getId().getContainerId() + " ("
        + request.getContainerUpdateType() + " to " + (same ? "the same size" : "another size")
        + ")");
  }

  @Override
  public Resource getAvailableResources() {
    return Resource.newInstance(0, 0);
  }

  @Override
  public int getClusterNodeCount() {
    return 1;
  }

  @Override
  public void updateBlacklist(List<String> additions, List<String> removals) {
    additions.removeAll(removals); // as YARN's AMRMClientImpl does: additions must be mutable
    additions.forEach(h -> calls.add("blacklist +" + h));
    removals.forEach(h -> calls.add("blacklist -" + h));
  }
}
