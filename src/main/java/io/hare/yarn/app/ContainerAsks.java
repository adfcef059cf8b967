package io.hare.yarn.app;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;

/**
 * The ResourceManager side of the round protocol: the calls of {@code AMRMClientAsync} it
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
   * Asks the scheduler to park the warm container {@code c}, whose task has just ended
   * successfully: a container update that decreases it to its size without the GPU. The Hare
   * scheduler counts the task's end, frees the GPU and keeps the container as a standby of the
   * job (or kills it, if it cannot).
   */
  void reportParked(Container c);

  /**
   * Completes once this AM's reports about container {@code c} ({@link #reportTaskStarted},
   * {@link #reportParked}) have reached the scheduler. The runner of a warm container is told to
   * exit only then: a report that arrives after the NodeManager's report of the container's end
   * is refused by YARN, and the task before it would never be counted.
   */
  default CompletableFuture<Void> reportsSent(ContainerId c) {
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Whether a standby container of the job waits for its GPU: the AM then heartbeats at its
   * standby interval, since the scheduler's promotion reaches it only with a heartbeat.
   */
  default void awaitingGpu(boolean waiting) {}

  /**
   * Changes the job's blacklist ({@code AMRMClient#updateBlacklist}): no container of the job
   * on the {@code additions} hosts from the next heartbeat on, and again on the
   * {@code removals}.
   */
  default void updateBlacklist(List<String> additions, List<String> removals) {}
}
