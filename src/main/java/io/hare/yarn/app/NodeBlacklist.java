package io.hare.yarn.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Hosts this job keeps its task containers off for a while, through YARN's application
 * blacklist ({@code AMRMClient#updateBlacklist}, which the Hare scheduler honours for GPU tasks):
 * a host where a container of the job could not start, or was lost with its node. A NodeManager
 * killed with SIGKILL stays RUNNING in the RM for its liveness expiry (10 minutes by default),
 * and one that restarted refuses containers allocated before its restart; without this the
 * task's next attempt may go straight back there.
 *
 * <p>A host is held for {@link #HOLD_MS} after its last such failure, or until the RM reports it
 * RUNNING again in a node report (sent when a node's state changes, e.g. back from LOST or
 * UNHEALTHY). Nothing else tells an AM that a node is healthy, and the RM's own liveness check
 * (and the Hare scheduler's, {@code yarn.scheduler.hare.node.liveness-grace-ms}) keeps a dead node
 * out by then, so a fixed hold is enough; it also bounds what a transient refusal costs a job
 * whose every node was held.
 *
 * <p>Time is the injected clock's. Not thread-safe: {@link RoundProtocol} holds it under its
 * lock; expiry runs before each AM heartbeat ({@link RoundProtocol#beforeHeartbeat}).
 */
final class NodeBlacklist {

  /** How long a host stays blacklisted after a container of the job was lost or refused there. */
  static final long HOLD_MS = 60_000;

  private final ContainerAsks asks;
  private final LongSupplier clockMs;
  /** Held hosts, each with the time its hold ends. */
  private final Map<String, Long> until = new HashMap<>();

  NodeBlacklist(ContainerAsks asks, LongSupplier clockMs) {
    this.asks = asks;
    this.clockMs = clockMs;
  }

  /** A container of the job was lost or refused on {@code host}: held from now. */
  void add(String host) {
    if (until.put(host, clockMs.getAsLong() + HOLD_MS) == null) {
      asks.updateBlacklist(mutable(host), new ArrayList<>());
    }
  }

  /** Lifts the holds that ended. */
  void expire() {
    if (until.isEmpty()) {
      return;
    }
    long now = clockMs.getAsLong();
    List<String> lifted = new ArrayList<>();
    until.entrySet().removeIf(e -> {
      if (e.getValue() <= now) {
        lifted.add(e.getKey());
        return true;
      }
      return false;
    });
    if (!lifted.isEmpty()) {
      asks.updateBlacklist(new ArrayList<>(), lifted);
    }
  }

  /** The RM reports {@code host} RUNNING again: its hold ends now. */
  void healthy(String host) {
    if (until.remove(host) != null) {
      asks.updateBlacklist(new ArrayList<>(), mutable(host));
    }
  }

  /**
   * YARN's {@code AMRMClientImpl#updateBlacklist} removes the removals from the additions list
   * it is given, so both lists must be mutable (an immutable one throws and ends the AM).
   */
  private static List<String> mutable(String host) {
    List<String> l = new ArrayList<>(1);
    l.add(host);
    return l;
  }
}
