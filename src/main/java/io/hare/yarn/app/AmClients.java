package io.hare.yarn.app;

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
   * releases and progress go out with it), and {@code NMClientAsync}.
   */
  static AmClients yarn(int heartbeatMs) {
    return new AmClients() {
      @Override
      public AMRMClientAsync<ContainerRequest> resourceManager(
          AMRMClientAsync.AbstractCallbackHandler handler) {
        return AMRMClientAsync.createAMRMClientAsync(heartbeatMs, handler);
      }

      @Override
      public NMClientAsync nodeManagers(NMClientAsync.AbstractCallbackHandler handler) {
        return NMClientAsync.createNMClientAsync(handler);
      }
    };
  }

  AMRMClientAsync<ContainerRequest> resourceManager(AMRMClientAsync.AbstractCallbackHandler handler);

  NMClientAsync nodeManagers(NMClientAsync.AbstractCallbackHandler handler);
}
