package io.hare.yarn.scheduler;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * Which nodes have heartbeated within the grace ({@code yarn.scheduler.hare.node.liveness-grace-ms}).
 * YARN's RM keeps a node whose NodeManager died RUNNING until its own liveness expiry (10 minutes
 * by default), and stock schedulers never notice, since they place only on the heartbeating
 * node. Hare places on any node, so it must tell a silent node itself: such a node gets no new
 * containers until its next heartbeat.
 *
 * <p>Times are the scheduler's clock (tests move it by hand). Nodes are kept in the order of
 * their last heartbeat, so finding the nodes that fell silent costs the nodes that did, not the
 * size of the cluster: the check runs at every scheduling pass.
 *
 * <p>Not thread-safe: the scheduler calls it under its lock.
 */
final class NodeLiveness {

  private long graceMs;
  /** Nodes heard within the grace, or not yet found silent, oldest heartbeat first. */
  private final LinkedHashMap<NodeId, Long> heard = new LinkedHashMap<>();
  private final Set<NodeId> silent = new HashSet<>();

  NodeLiveness(long graceMs) {
    this.graceMs = graceMs;
  }

  /**
   * The node registered or heartbeated at {@code nowMs}.
   *
   * @return whether it was silent until now (it is back)
   */
  boolean heard(NodeId id, long nowMs) {
    heard.remove(id); // re-inserted last: the order is that of the last heartbeat
    heard.put(id, nowMs);
    return silent.remove(id);
  }

  /** Nodes that fell silent by {@code nowMs}: last heard more than the grace ago; each once. */
  List<NodeId> fallenSilent(long nowMs) {
    List<NodeId> out = List.of();
    for (Iterator<Map.Entry<NodeId, Long>> it = heard.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<NodeId, Long> e = it.next();
      if (nowMs - e.getValue() <= graceMs) {
        break; // every later one was heard later
      }
      if (out.isEmpty()) {
        out = new ArrayList<>();
      }
      out.add(e.getKey());
      silent.add(e.getKey());
      it.remove();
    }
    return out;
  }

  /** The node left the cluster. */
  void removed(NodeId id) {
    heard.remove(id);
    silent.remove(id);
  }

  /** Whether node {@code id} is silent now. */
  boolean silent(NodeId id) {
    return silent.contains(id);
  }

  /** Nodes silent now. */
  int silentCount() {
    return silent.size();
  }

  /** A new grace (a refresh of the settings), from the next check on. */
  void setGraceMs(long ms) {
    graceMs = ms;
  }
}
