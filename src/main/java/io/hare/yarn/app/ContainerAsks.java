package io.hare.yarn.app;

import org.apache.hadoop.yarn.api.records.Container;
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

  /**
   * Tells the scheduler that the warm container {@code c} has just started another task of the
   * job (its previous one ended successfully): the Hare scheduler reads a container update that
   * "decreases" the container to its own size as that report and never resizes it.
   */
  void reportTaskStarted(Container c);

  /**
   * Whether a standby container of the job waits for its GPU: the AM then heartbeats at its
   * standby interval, since the scheduler's promotion reaches it only with a heartbeat.
   */
  default void awaitingGpu(boolean waiting) {}
}
