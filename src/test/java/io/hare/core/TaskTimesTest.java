package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

/** Task times: compute strictly positive, sync may be zero, both finite. */
public class TaskTimesTest {

  @Test(timeout = 60_000)
  public void roundIsComputePlusSync() {
    assertEquals(120.5, new TaskTimes(100, 20.5).roundMs(), 0);
    assertEquals(0.25, new TaskTimes(0.25, 0).roundMs(), 0);
  }

  @Test(timeout = 60_000)
  public void badTimesAreRefusedWithTheirValue() {
    String compute = "compute time must be finite and > 0 ms, got ";
    assertBad(compute + "0.0", 0, 1);
    assertBad(compute + "-1.0", -1, 1);
    assertBad(compute + "NaN", Double.NaN, 1);
    assertBad(compute + "Infinity", Double.POSITIVE_INFINITY, 1);
    String sync = "sync time must be finite and >= 0 ms, got ";
    assertBad(sync + "-0.5", 1, -0.5);
    assertBad(sync + "NaN", 1, Double.NaN);
    assertBad(sync + "Infinity", 1, Double.POSITIVE_INFINITY);
  }

  private static void assertBad(String message, double computeMs, double syncMs) {
    try {
      TaskTimes t = new TaskTimes(computeMs, syncMs);
      fail("accepted " + t);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
