package io.hare.yarn.app;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * Hands the {@link RunnerServer}'s reports to the round protocol once it exists: the server (and
 * so the address the task containers get) is made before the AM's protocol. Until then, or
 * without one, a runner (a standby's too) is told to exit and its container's end is read as
 * usual.
 */
final class RunnerLink implements RunnerServer.Handler {

  volatile RoundProtocol protocol;

  @Override
  public Optional<RunnerServer.Next> taskEnded(ContainerId container, int exitCode) {
    RoundProtocol p = protocol;
    return p == null ? Optional.empty() : p.onRunnerTaskEnded(container, exitCode);
  }

  @Override
  public CompletableFuture<Optional<RunnerServer.Next>> standby(ContainerId container) {
    RoundProtocol p = protocol;
    return p == null ? CompletableFuture.completedFuture(Optional.empty())
        : p.onRunnerReady(container);
  }

  @Override
  public CompletableFuture<Void> beforeExit(ContainerId container) {
    RoundProtocol p = protocol;
    return p == null ? CompletableFuture.completedFuture(null) : p.beforeExit(container);
  }

  @Override
  public Optional<RunnerServer.Next> taskOf(ContainerId container) {
    RoundProtocol p = protocol;
    return p == null ? Optional.empty() : p.taskOf(container);
  }

  @Override
  public int containersHeld() {
    RoundProtocol p = protocol;
    return p == null ? 0 : p.containersHeld();
  }
}
