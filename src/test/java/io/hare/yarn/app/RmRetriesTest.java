package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.junit.After;
import org.junit.Test;

/**
 * A call the ResourceManager fails while going down is tried again, with a growing backoff,
 * until YARN's wait for the ResourceManager is over; refusals and lost connections (which YARN's
 * proxy retries itself) go to the caller at once.
 */
public class RmRetriesTest {

  private long nowMs;
  private final List<Long> slept = new ArrayList<>();

  private RmRetries retries(long windowMs) {
    return new RmRetries(windowMs, 400, () -> nowMs, ms -> {
      slept.add(ms);
      nowMs += ms;
    });
  }

  @After
  public void clearInterrupt() {
    Thread.interrupted();
  }

  @Test(timeout = 60_000)
  public void aCallFailedByAStoppingRmIsTriedAgain() throws Exception {
    int[] calls = {0};
    String r = retries(10_000).call("allocate", () -> {
      if (++calls[0] <= 4) {
        throw new YarnRuntimeException(new InterruptedException());
      }
      return "response";
    });
    assertEquals("response", r);
    assertEquals(5, calls[0]);
    assertEquals("doubling, up to the retry interval", List.of(100L, 200L, 400L, 400L), slept);
  }

  @Test(timeout = 60_000)
  public void afterYarnsWaitForTheRmTheFailureGoesToTheCaller() {
    YarnRuntimeException e = new YarnRuntimeException("still down");
    YarnRuntimeException thrown = assertThrows(YarnRuntimeException.class,
        () -> retries(1_000).call("allocate", () -> {
          throw e;
        }));
    assertSame(e, thrown);
    assertEquals("100+200+400+400 ms, then the wait is over", List.of(100L, 200L, 400L, 400L),
        slept);
  }

  @Test(timeout = 60_000)
  public void refusalsAndLostConnectionsAreNotRetriedHere() {
    assertThrows(ApplicationMasterNotRegisteredException.class,
        () -> retries(10_000).call("allocate", () -> {
          throw new ApplicationMasterNotRegisteredException("not registered");
        }));
    assertThrows(IOException.class, () -> retries(10_000).call("allocate", () -> {
      throw new IOException("connection refused");
    }));
    assertEquals(List.of(), slept);
  }

  @Test(timeout = 60_000)
  public void aStoppingClientEndsTheRetries() {
    RmRetries r = new RmRetries(10_000, 400, () -> 0, ms -> {
      throw new InterruptedException();
    });
    assertThrows(YarnRuntimeException.class, () -> r.call("allocate", () -> {
      throw new YarnRuntimeException("down");
    }));
    assertTrue("the interrupt is kept for the client", Thread.currentThread().isInterrupted());
  }
}
