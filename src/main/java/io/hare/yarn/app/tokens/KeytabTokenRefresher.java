package io.hare.yarn.app.tokens;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.security.Credentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refreshes the AM's delegation tokens from a keytab, as Spark's {@code AMCredentialRenewer} and
 * Flink's delegation token manager do: gets new tokens ({@link TokenSource}), installs them
 * ({@link Installer}: the AM's UGI, replacing the old ones by service, and a token file for the
 * processes it starts), then waits {@code ratio} of the time to the new tokens' earliest expiry,
 * but at least {@code minIntervalMs}, so that an expiry in the past or a clock gone wrong cannot
 * make it spin.
 *
 * <p>The first refresh comes at {@code ratio} of the time to the expiry of the tokens the AM
 * started with (their maximum lifetime: the ResourceManager renews the client's tokens until
 * then), at once when that is past (a later AM attempt) or unknown.
 *
 * <p>A failed refresh is logged at WARN and tried again after {@code retryIntervalMs}, doubled
 * after each further failure up to {@link #MAX_BACKOFF} times the interval; it never ends the
 * job by itself: tasks fail only when the old tokens do expire, and the AM keeps trying until
 * then. Refreshes run one at a time on the {@link RefreshScheduler}'s thread; {@link #generation}
 * is read from any thread, and is raised only after the new tokens are installed, so a reader
 * that sees generation g and then reads the tokens gets tokens of generation g or later.
 */
public final class KeytabTokenRefresher implements TokenRefresher {

  /** The most a retry interval is multiplied by after consecutive failures. */
  static final int MAX_BACKOFF = 16;
  private static final Logger LOG = LoggerFactory.getLogger(KeytabTokenRefresher.class);

  /** Puts new tokens where the AM and its processes use them. */
  public interface Installer {
    /** Adds {@code fresh} to the AM's credentials, replacing tokens of the same services. */
    void install(Credentials fresh) throws IOException;

    /** What a process started now needs to find the installed tokens ({@link #childEnv}). */
    Map<String, String> childEnv();
  }

  private final TokenSource source;
  private final Installer installer;
  private final TokenRefreshSpec timing;
  private final long startExpiresAtMs;
  private final LongSupplier clockMs;
  private final RefreshScheduler scheduler;
  private final AtomicLong generation = new AtomicLong();
  /** Refreshes failed since the last success; only the scheduler's thread uses it. */
  private int failures;
  private volatile Runnable afterRefresh = () -> {};
  private volatile boolean closed;

  /**
   * @param startExpiresAtMs when the AM's first tokens expire (epoch ms;
   *     {@link DelegationTokens#earliestMaxDate}), 0 when unknown
   */
  public KeytabTokenRefresher(TokenSource source, Installer installer, TokenRefreshSpec timing,
      long startExpiresAtMs, LongSupplier clockMs, RefreshScheduler scheduler) {
    this.source = source;
    this.installer = installer;
    this.timing = timing;
    this.startExpiresAtMs = startExpiresAtMs;
    this.clockMs = clockMs;
    this.scheduler = scheduler;
  }

  @Override
  public void start(Runnable afterRefresh) {
    this.afterRefresh = afterRefresh;
    long now = clockMs.getAsLong();
    long delay = startExpiresAtMs <= now ? 0 : (long) (timing.ratio() * (startExpiresAtMs - now));
    LOG.info("Delegation tokens: first refresh from the keytab of {} in {} ms", timing.principal(),
        delay);
    scheduler.schedule(this::refresh, delay);
  }

  @Override
  public long generation() {
    return generation.get();
  }

  @Override
  public Map<String, String> childEnv() {
    return generation.get() == 0 ? Map.of() : installer.childEnv();
  }

  @Override
  public void close() {
    closed = true;
    scheduler.close();
  }

  /** Delay before the refresh after one whose tokens first expire at {@code expiresAtMs}. */
  long nextDelay(long expiresAtMs) {
    long left = expiresAtMs - clockMs.getAsLong();
    long atRatio = expiresAtMs == Long.MAX_VALUE ? 0 : (long) (timing.ratio() * left);
    return Math.max(timing.minIntervalMs(), atRatio);
  }

  /** Delay before the next try after the {@code failures}-th failure in a row. */
  long retryDelay(int failures) {
    return timing.retryIntervalMs() * Math.min(MAX_BACKOFF, 1L << Math.min(failures - 1, 30));
  }

  private void refresh() {
    if (closed) {
      return;
    }
    long next;
    try {
      TokenSource.Fresh fresh = source.obtain();
      installer.install(fresh.credentials());
      long g = generation.incrementAndGet();
      failures = 0;
      next = nextDelay(fresh.expiresAtMs());
      LOG.info("Delegation tokens refreshed from the keytab of {} (generation {}: {}); earliest"
          + " expiry {}; next refresh in {} ms", timing.principal(), g,
          DelegationTokens.describe(fresh.credentials()), fresh.expiresAtMs(), next);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      failures++;
      next = retryDelay(failures);
      LOG.warn("Delegation tokens: refresh {} from the keytab of {} failed; trying again in {} ms"
          + " (the job runs on with its current tokens)", failures, timing.principal(), next, e);
      scheduler.schedule(this::refresh, next);
      return;
    }
    try {
      afterRefresh.run();
    } catch (RuntimeException e) {
      LOG.warn("Delegation tokens: acting on refresh {} failed", generation.get(), e);
    }
    scheduler.schedule(this::refresh, next);
  }
}
