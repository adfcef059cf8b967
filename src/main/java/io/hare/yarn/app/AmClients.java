package io.hare.yarn.app;

import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;

/**
 * Creates the ApplicationMaster's two YARN clients around its callback handlers; the AM inits,
 * starts and stops them. {@link #yarn} makes the real ones; tests pass scripted doubles (as
 * Flink's {@code YarnResourceManagerDriver} takes its client factories).
 */
public interface AmClients {

  /**
   * The real clients: {@code AMRMClientAsync}, heartbeating every {@code heartbeatMs} (asks,
   * releases and progress go out with it) or sooner when hurried, and {@code NMClientAsync},
   * which leaves the task containers to YARN when the AM stops.
   */
  static AmClients yarn(int heartbeatMs) {
    return new AmClients() {
      private volatile HurriableAmrmClient client;

      @Override
      public AMRMClientAsync<ContainerRequest> resourceManager(
          AMRMClientAsync.AbstractCallbackHandler handler) {
        client = new HurriableAmrmClient(heartbeatMs);
        return client.async(handler);
      }

      @Override
      public void hurry() {
        HurriableAmrmClient c = client;
        if (c != null) {
          c.hurry();
        }
      }

      @Override
      public CompletableFuture<Void> updatesSent(ContainerId id) {
        HurriableAmrmClient c = client;
        return c == null ? CompletableFuture.completedFuture(null) : c.updatesSent(id);
      }

      @Override
      public NMClientAsync nodeManagers(NMClientAsync.AbstractCallbackHandler handler) {
        NMClientAsync nm = NMClientAsync.createNMClientAsync(handler);
        // By default the client stops every container it ever started when the AM stops: one
        // RPC per task of the job, and on a node that is gone each waits out the NodeManager
        // connect timeout (3 min), holding the AM in FINISHING. YARN kills an ended
        // application's containers itself.
        nm.getClient().cleanupRunningContainersOnStop(false);
        return nm;
      }
    };
  }

  AMRMClientAsync<ContainerRequest> resourceManager(AMRMClientAsync.AbstractCallbackHandler handler);

  /**
   * Makes the ResourceManager client send its next heartbeat now rather than at the end of its
   * interval (the real one can, {@link HurriableAmrmClient}); a double may do nothing.
   */
  default void hurry() {}

  /**
   * Completes once the container updates of {@code id} asked for so far have reached the
   * ResourceManager ({@link HurriableAmrmClient#updatesSent}); a double may complete at once.
   */
  default CompletableFuture<Void> updatesSent(ContainerId id) {
    return CompletableFuture.completedFuture(null);
  }

  NMClientAsync nodeManagers(NMClientAsync.AbstractCallbackHandler handler);
}
