package io.hare.yarn.app;

import java.io.IOException;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the ApplicationMaster's heartbeat rides out a ResourceManager that fails a call instead of
 * refusing it: a ResourceManager stopping for a restart fails the allocate calls in flight with
 * a {@link YarnRuntimeException} (its event queue interrupted), which YARN's RM proxy does not
 * retry, as it retries a lost connection. Such a failure is tried again, with a backoff from
 * 100 ms up to YARN's {@code yarn.resourcemanager.connect.retry-interval.ms}, until YARN's
 * {@code yarn.resourcemanager.connect.max-wait.ms} has passed since the first one (-1: for
 * ever), as MapReduce's AM waits out its ResourceManager; a call that then still fails, or any
 * {@link YarnException} (a refusal: not registered, a bad request) or {@link IOException}, goes
 * to the caller as before. AMRMClientImpl keeps the asks and releases of a failed call for the
 * next one, so a retry loses nothing.
 */
final class RmRetries {

  private static final Logger LOG = LoggerFactory.getLogger(RmRetries.class);
  private static final long FIRST_BACKOFF_MS = 100;

  /** One call to the ResourceManager. */
  interface RmCall<T> {
    T call() throws YarnException, IOException;
  }

  /** Waits between two tries; injected by tests. */
  interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  private final long windowMs;
  private final long maxBackoffMs;
  private final LongSupplier clockMs;
  private final Sleeper sleeper;

  RmRetries(long windowMs, long maxBackoffMs, LongSupplier clockMs, Sleeper sleeper) {
    this.windowMs = windowMs;
    this.maxBackoffMs = Math.max(FIRST_BACKOFF_MS, maxBackoffMs);
    this.clockMs = clockMs;
    this.sleeper = sleeper;
  }

  /** With YARN's limits for reaching the ResourceManager, from {@code conf}. */
  static RmRetries from(Configuration conf) {
    return new RmRetries(
        conf.getLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS,
            YarnConfiguration.DEFAULT_RESOURCEMANAGER_CONNECT_MAX_WAIT_MS),
        conf.getLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS,
            YarnConfiguration.DEFAULT_RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS),
        () -> System.nanoTime() / 1_000_000, Thread::sleep);
  }

  <T> T call(String what, RmCall<T> c) throws YarnException, IOException {
    long firstMs = Long.MIN_VALUE;
    long backoffMs = FIRST_BACKOFF_MS;
    while (true) {
      try {
        return c.call();
      } catch (YarnRuntimeException e) {
        long now = clockMs.getAsLong();
        if (firstMs == Long.MIN_VALUE) {
          firstMs = now;
        }
        if (windowMs >= 0 && now - firstMs >= windowMs) {
          throw e;
        }
        LOG.warn("the ResourceManager failed {} ({}); trying again in {} ms", what, e.toString(),
            backoffMs);
        try {
          sleeper.sleep(backoffMs);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt(); // the client is stopping
          throw e;
        }
        backoffMs = Math.min(2 * backoffMs, maxBackoffMs);
      }
    }
  }
}
