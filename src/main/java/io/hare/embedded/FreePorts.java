package io.hare.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fixed ports for daemons that must know their addresses before they start (an RM that
 * restarts on the same addresses, an HA pair whose clients list both, NodeManager processes).
 * Each is free when handed out and lies below Linux's ephemeral range (32768 and up): a port
 * the kernel handed out for port 0 goes back to that pool when closed, where any process's
 * outgoing connection can take it before the daemon binds it (a NodeManager failed to start
 * so, "Address already in use"); a port below the range goes only to whoever asks for it by
 * number. Never the same port twice in one JVM.
 */
public final class FreePorts {

  /** The first port handed out. */
  public static final int FIRST = 20_000;
  /** How many ports from {@link #FIRST} on. */
  public static final int COUNT = 12_000;

  private static final Random RANDOM = new Random();
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private FreePorts() {
  }

  /** A port nobody listens on now, on any address, and not handed out before in this JVM. */
  public static int next() throws IOException {
    for (int attempt = 0; attempt < 500; attempt++) {
      int port = FIRST + RANDOM.nextInt(COUNT);
      if (!GIVEN.add(port)) {
        continue;
      }
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(port)); // the wildcard: free on every loopback address
        return port;
      } catch (IOException e) {
        // in use: try another
      }
    }
    throw new IOException("no free port from " + FIRST + " to " + (FIRST + COUNT - 1));
  }
}
