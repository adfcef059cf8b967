package io.hare.bench;

import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.DrainDispatcher;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;

/**
 * MockRM whose {@code drainEvents} parks while it waits instead of spinning: MockRM's own
 * dispatcher spins on {@code Thread.yield}, which on a 2-core machine takes the core the RM's
 * dispatcher thread (where the scheduler runs) and Hare's re-plan thread need, and so would slow
 * the very path the bench times. Everything else is MockRM's.
 */
final class BenchRm extends MockRM {

  BenchRm(Configuration conf) {
    super(conf);
  }

  @Override
  protected Dispatcher createDispatcher() {
    return new ParkingDrainDispatcher();
  }

  private static final class ParkingDrainDispatcher extends DrainDispatcher {
    @Override
    public void await() {
      while (!isDrained()) {
        LockSupport.parkNanos(20_000);
      }
    }
  }
}
