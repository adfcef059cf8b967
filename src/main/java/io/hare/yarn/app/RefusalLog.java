package io.hare.yarn.app;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs the task channel's refusals once per peer address: the first refusal of a peer at WARN
 * with its reason, then at most one line per {@code intervalMs} counting the ones in between, so
 * a flood of connections from one host costs a line a minute, not a line a connection. Remembers
 * the last {@value #PEERS} peers (least recently refused forgotten first).
 *
 * <p>Not thread-safe: the channel's one thread calls it.
 */
final class RefusalLog {

  static final int PEERS = 1024;

  private record Peer(long loggedMs, int unlogged) {}

  private final Logger log;
  private final long intervalMs;
  private final LongSupplier clockMs;
  private final Map<InetAddress, Peer> peers = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<InetAddress, Peer> eldest) {
      return size() > PEERS;
    }
  };

  RefusalLog(Logger log, long intervalMs, LongSupplier clockMs) {
    this.log = log;
    this.intervalMs = intervalMs;
    this.clockMs = clockMs;
  }

  /** A connection from {@code peer} was refused: {@code code} and {@code why}, as sent to it. */
  void refused(InetAddress peer, String code, String why) {
    long now = clockMs.getAsLong();
    Peer p = peers.get(peer);
    if (p == null) {
      log.warn("task channel: refused a connection from {}: {} ({}); further refusals of this"
          + " peer are counted, at most one line every {} s", peer.getHostAddress(), code, why,
          intervalMs / 1000);
      peers.put(peer, new Peer(now, 0));
    } else if (now - p.loggedMs() >= intervalMs) {
      log.warn("task channel: refused {} more connections from {} in the last {} s; the last:"
          + " {} ({})", p.unlogged() + 1, peer.getHostAddress(), (now - p.loggedMs()) / 1000,
          code, why);
      peers.put(peer, new Peer(now, 0));
    } else {
      peers.put(peer, new Peer(p.loggedMs(), p.unlogged() + 1));
    }
  }
}
