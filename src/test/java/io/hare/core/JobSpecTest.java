package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

/** Job validation: each bad field is refused with a message naming the job and the value. */
public class JobSpecTest {

  @Test(timeout = 60_000)
  public void goodJobKeepsItsFieldsAndCountsTasks() {
    JobSpec j = new JobSpec("j1", 0, 0.5, "resnet", 4, 3);
    assertEquals("j1", j.id());
    assertEquals(0L, j.arrivalMs());
    assertEquals(0.5, j.weight(), 0);
    assertEquals(12L, j.totalTasks());
    // 100 000 x 100 000 = 1e10 does not fit in an int: counted as a long
    assertEquals(10_000_000_000L, new JobSpec("big", 5, 1, "m", 100_000, 100_000).totalTasks());
  }

  @Test(timeout = 60_000)
  public void badFieldsAreRefusedWithTheirValue() {
    assertBad("job id must not be blank", null, 0, 1, "m", 1, 1);
    assertBad("job id must not be blank", " ", 0, 1, "m", 1, 1);
    assertBad("job j: arrival must be >= 0 ms, got -1", "j", -1, 1, "m", 1, 1);
    assertBad("job j: weight must be finite and > 0, got 0.0", "j", 0, 0, "m", 1, 1);
    assertBad("job j: weight must be finite and > 0, got -2.0", "j", 0, -2, "m", 1, 1);
    assertBad("job j: weight must be finite and > 0, got NaN", "j", 0, Double.NaN, "m", 1, 1);
    assertBad("job j: weight must be finite and > 0, got Infinity", "j", 0,
        Double.POSITIVE_INFINITY, "m", 1, 1);
    assertBad("job j: model must not be blank", "j", 0, 1, null, 1, 1);
    assertBad("job j: model must not be blank", "j", 0, 1, "", 1, 1);
    assertBad("job j: tasks per round must be >= 1, got 0", "j", 0, 1, "m", 0, 1);
    assertBad("job j: rounds must be >= 1, got 0", "j", 0, 1, "m", 1, 0);
    assertBad("job j: rounds must be >= 1, got -3", "j", 0, 1, "m", 1, -3);
  }

  private static void assertBad(String message, String id, long arrival, double weight,
      String model, int k, int rounds) {
    try {
      JobSpec j = new JobSpec(id, arrival, weight, model, k, rounds);
      fail("accepted " + j);
    } catch (IllegalArgumentException e) {
      assertEquals(message, e.getMessage());
    }
  }
}
