package io.hare.yarn.app;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * The AM's hurriable heartbeat: the first heartbeat goes at once; a later one waits its interval
 * unless hurried, or the interval is shortened, while it waits.
 */
public class HurriableAmrmClientTest {

  private static final long AN_HOUR_MS = 3_600_000L;

  /** Starts a heartbeat's wait on another thread; the latch opens when its turn came. */
  private static CountDownLatch waitTurn(HurriableAmrmClient c) {
    CountDownLatch turn = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      c.awaitTurn();
      turn.countDown();
    });
    t.setDaemon(true);
    t.start();
    return turn;
  }

  @Test(timeout = 60_000)
  public void theFirstHeartbeatGoesAtOnceALaterOneWhenHurried() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    CountDownLatch second = waitTurn(c);
    assertFalse("it waits its interval", second.await(200, TimeUnit.MILLISECONDS));
    c.hurry();
    assertTrue(second.await(30, TimeUnit.SECONDS));
  }

  @Test(timeout = 60_000)
  public void aHurryDuringAHeartbeatSendsTheNextAtOnce() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    c.hurry(); // while the first one is in flight
    assertTrue(waitTurn(c).await(30, TimeUnit.SECONDS));
    assertFalse("one hurry, one early heartbeat",
        waitTurn(c).await(200, TimeUnit.MILLISECONDS));
  }

  @Test(timeout = 60_000)
  public void aShorterIntervalAppliesToTheHeartbeatBeingWaitedFor() throws Exception {
    HurriableAmrmClient c = new HurriableAmrmClient(AN_HOUR_MS);
    c.awaitTurn();
    CountDownLatch second = waitTurn(c);
    c.setIntervalMs(1);
    assertTrue(second.await(30, TimeUnit.SECONDS));
  }
}
