package io.hare.yarn.app;

import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;

/**
 * The ResourceManager side of the round protocol: the three calls of {@code AMRMClientAsync} it
 * needs. Calls must not block (AMRMClientAsync only queues them for its next heartbeat).
 */
public interface ContainerAsks {

  void addContainerRequest(ContainerRequest request);

  /** Withdraws one satisfied ask, so that YARN does not allocate for it again. */
  void removeContainerRequest(ContainerRequest request);

  void releaseAssignedContainer(ContainerId container);
}
