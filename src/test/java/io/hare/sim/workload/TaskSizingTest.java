package io.hare.sim.workload;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Cutting a run time into rounds of power-of-two-step tasks, worked by hand. */
public class TaskSizingTest {

  @Test(timeout = 60_000)
  public void shortJobsKeepOneStepTasks() {
    // 20 s of 125 ms rounds: 160 rounds of one step.
    assertEquals(new TaskSizing(1, 160), TaskSizing.fit(20_000, 125, 200));
  }

  @Test(timeout = 60_000)
  public void longJobsGetTheSmallestPowerOfTwoThatFitsTheCap() {
    // 1 h of 100 ms rounds = 36000; 36000 / 128 = 281 > 200, 36000 / 256 = 140.6 -> 141.
    assertEquals(new TaskSizing(256, 141), TaskSizing.fit(3_600_000, 100, 200));
  }

  @Test(timeout = 60_000)
  public void tinyJobsRunOneRound() {
    assertEquals(new TaskSizing(1, 1), TaskSizing.fit(0, 125, 200));
    assertEquals(new TaskSizing(1, 1), TaskSizing.fit(10, 125, 200));
  }

  @Test(timeout = 60_000)
  public void variantNamesCarryTheSteps() {
    assertEquals("resnet50-x16", TaskSizing.variant("resnet50", 16));
  }

  @Test(timeout = 60_000, expected = IllegalArgumentException.class)
  public void zeroStepTimeIsAProgrammingError() {
    TaskSizing.fit(1000, 0, 200);
  }
}
