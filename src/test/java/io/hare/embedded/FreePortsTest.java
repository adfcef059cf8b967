package io.hare.embedded;

import static org.junit.Assert.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.Test;

public class FreePortsTest {

  @Test(timeout = 60_000)
  public void portsAreFreeBelowTheEphemeralRangeAndNeverHandedOutTwice() throws Exception {
    Set<Integer> seen = new HashSet<>();
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(FreePorts.next()));
      for (int i = 0; i < 200; i++) {
        int port = FreePorts.next();
        assertTrue(port + " handed out twice", seen.add(port));
        assertTrue(port + " is outside the range",
            port >= FreePorts.FIRST && port < FreePorts.FIRST + FreePorts.COUNT && port < 32768);
        assertTrue("a port in use was handed out", port != taken.getLocalPort());
      }
      int last = FreePorts.next();
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(last)); // free: a daemon can bind it
      }
    }
  }
}
