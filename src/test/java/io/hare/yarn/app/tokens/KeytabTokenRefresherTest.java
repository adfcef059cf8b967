package io.hare.yarn.app.tokens;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.junit.Test;

/**
 * The refresher's schedule, driven by hand: the first refresh at the ratio of the start tokens'
 * time left, each next one at the ratio of the new tokens' time left but never sooner than the
 * minimum, a failure retried with a doubling wait and no new generation, the processes pointed
 * at the new tokens only once there are some.
 */
public class KeytabTokenRefresherTest {

  private static final long MIN = 1_000;
  private static final long RETRY = 2_000;
  private static final TokenRefreshSpec TIMING =
      new TokenRefreshSpec("alice@EXAMPLE.COM", "hare-am.keytab", 0.75, MIN, RETRY);

  private long now = 1_000_000;
  /** What each obtain answers, in order: Fresh tokens or an exception to throw. */
  private final Deque<Object> answers = new ArrayDeque<>();
  private final List<Credentials> installed = new ArrayList<>();
  private final TestingRefreshScheduler scheduler = new TestingRefreshScheduler();
  private int afterRefresh;

  private KeytabTokenRefresher refresher(long startExpiry) {
    TokenSource source = () -> {
      Object a = answers.remove();
      if (a instanceof Exception e) {
        throw e;
      }
      return (TokenSource.Fresh) a;
    };
    KeytabTokenRefresher.Installer installer = new KeytabTokenRefresher.Installer() {
      @Override
      public void install(Credentials fresh) {
        installed.add(fresh);
      }

      @Override
      public Map<String, String> childEnv() {
        return Map.of("HADOOP_TOKEN_FILE_LOCATION", "/container/hare-am.tokens");
      }
    };
    return new KeytabTokenRefresher(source, installer, TIMING, startExpiry, () -> now, scheduler);
  }

  private static TokenSource.Fresh fresh(String password, long expiresAt) {
    Credentials c = new Credentials();
    c.addToken(new Text("nn:8020"), new Token<>(new byte[0], password.getBytes(),
        new Text("HDFS_DELEGATION_TOKEN"), new Text("nn:8020")));
    return new TokenSource.Fresh(c, expiresAt);
  }

  @Test(timeout = 60_000)
  public void refreshesAtTheRatioOfTheTimeLeftToTheEarliestExpiry() {
    KeytabTokenRefresher r = refresher(now + 100_000);
    r.start(() -> afterRefresh++);
    assertEquals("the start tokens: 0.75 of their 100 s", List.of(75_000L), scheduler.delays);
    assertEquals(0, r.generation());
    assertEquals("the container's own token file until a refresh", Map.of(), r.childEnv());

    now += 75_000;
    TokenSource.Fresh first = fresh("one", now + 40_000);
    answers.add(first);
    scheduler.runNext();
    assertEquals(1, r.generation());
    assertSame(first.credentials(), installed.get(0));
    assertEquals(1, afterRefresh);
    assertEquals("0.75 of the new tokens' 40 s", 30_000L, (long) scheduler.delays.get(1));
    assertEquals("/container/hare-am.tokens", r.childEnv().get("HADOOP_TOKEN_FILE_LOCATION"));

    now += 30_000;
    answers.add(fresh("two", now + 40_000));
    scheduler.runNext();
    assertEquals(2, r.generation());
    assertEquals(30_000L, (long) scheduler.delays.get(2));
  }

  @Test(timeout = 60_000)
  public void anExpiryTooCloseOrPastWaitsTheMinimumAndAPastStartRefreshesAtOnce() {
    KeytabTokenRefresher r = refresher(now - 5); // a later attempt: the job's tokens are dead
    r.start(() -> {});
    assertEquals(List.of(0L), scheduler.delays);
    answers.add(fresh("soon", now + 200)); // 0.75 of 200 ms would hammer the KDC
    scheduler.runNext();
    answers.add(fresh("past", now - 10_000));
    scheduler.runNext();
    answers.add(fresh("unknown", Long.MAX_VALUE));
    scheduler.runNext();
    assertEquals(List.of(0L, MIN, MIN, MIN), scheduler.delays);
    assertEquals(3, r.generation());
  }

  @Test(timeout = 60_000)
  public void aFailureIsRetriedWithADoublingWaitAndKeepsTheGeneration() {
    KeytabTokenRefresher r = refresher(0); // unknown: at once
    r.start(() -> afterRefresh++);
    for (int i = 0; i < 7; i++) {
      answers.add(new IOException("KDC unreachable"));
      scheduler.runNext();
    }
    assertEquals("never more than 16 times the interval", List.of(0L, RETRY, 2 * RETRY,
        4 * RETRY, 8 * RETRY, 16 * RETRY, 16 * RETRY, 16 * RETRY), scheduler.delays);
    assertEquals(0, r.generation());
    assertEquals(0, afterRefresh);
    assertTrue(installed.isEmpty());
    answers.add(fresh("back", now + 40_000));
    scheduler.runNext();
    assertEquals(1, r.generation());
    answers.add(new IOException("again"));
    scheduler.runNext();
    assertEquals("a success resets the backoff", RETRY,
        (long) scheduler.delays.get(scheduler.delays.size() - 1));
  }

  @Test(timeout = 60_000)
  public void closedItRefreshesNoMore() {
    KeytabTokenRefresher r = refresher(now + 1_000_000);
    r.start(() -> {});
    r.close();
    assertTrue(scheduler.closed);
    scheduler.runNext(); // a wait that was already due
    assertEquals(0, r.generation());
    assertEquals(0, scheduler.pending());
  }

  @Test(timeout = 60_000)
  public void noneNeverRefreshes() {
    TokenRefresher.NONE.start(() -> {
      throw new AssertionError("no refresh");
    });
    assertEquals(0, TokenRefresher.NONE.generation());
    assertEquals(Map.of(), TokenRefresher.NONE.childEnv());
  }
}
