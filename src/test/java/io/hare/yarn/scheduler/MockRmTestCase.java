package io.hare.yarn.scheduler;

import org.junit.After;
import org.junit.BeforeClass;

/**
 * A scheduler test on a {@link HareRm}: what every first test of a JVM would otherwise load under
 * its timeout is loaded before the class's tests, and the RM a test starts in {@link #h} is
 * stopped after it, whatever the test did.
 */
public abstract class MockRmTestCase {

  /** The RM of the running test, if it started one. */
  protected HareRm h;

  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stopRm() {
    if (h != null) {
      h.close();
      h = null;
    }
  }
}
