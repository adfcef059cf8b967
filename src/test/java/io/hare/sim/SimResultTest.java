package io.hare.sim;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The metrics of a hand-built result. */
public class SimResultTest {

  @Test(timeout = 60_000)
  public void metricsOfAHandBuiltResult() {
    // A: w 2, 0 -> 1000 (JCT 1 s); B: w 1, 500 -> 3500 (3 s); C: w 0.5, arrives 1000, unfinished;
    // D: w 1, 2000 -> 4000 (2 s)
    List<JobOutcome> jobs = List.of(
        new JobOutcome("A", 2, "m", 1, 1, 0, 1000),
        new JobOutcome("B", 1, "m", 1, 1, 500, 3500),
        new JobOutcome("C", 0.5, "m", 1, 1, 1000, -1),
        new JobOutcome("D", 1, "m", 1, 1, 2000, 4000));
    // 2 GPUs computing 4000 ms in all
    SimResult r = new SimResult("p", jobs, List.of(), 4000, 2, 3, 4, 10_000_000, 3_000_000);
    assertEquals(1, r.unfinishedJobs());
    // 2 x 1 + 1 x 3 + 1 x 2; the unfinished job counts nowhere
    assertEquals(7.0, r.totalWeightedJctS(), 1e-12);
    // (1 + 3 + 2) / 3
    assertEquals(2.0, r.avgJctS(), 1e-12);
    assertArrayEquals(new double[] {1, 2, 3}, r.sortedJctsS(), 0);
    // nearest rank: ceil(0.95 x 3) = 3rd smallest
    assertEquals(3.0, r.p95JctS(), 0);
    // first arrival (0) to last completion (4000)
    assertEquals(4.0, r.makespanS(), 1e-12);
    // 4000 busy ms over 2 GPUs x 4000 ms
    assertEquals(0.5, r.gpuUtilization(), 1e-12);
    // 10 ms over 4 re-plans; longest 3 ms
    assertEquals(2.5, r.replanAvgMs(), 1e-12);
    assertEquals(3.0, r.replanMaxMs(), 1e-12);
  }

  @Test(timeout = 60_000)
  public void p95IsTheNearestRank() {
    // JCTs 1..20 s: ceil(0.95 x 20) = 19th; 1..21 s: ceil(19.95) = 20th; one job: itself
    assertEquals(19.0, withJcts(20).p95JctS(), 0);
    assertEquals(20.0, withJcts(21).p95JctS(), 0);
    assertEquals(1.0, withJcts(1).p95JctS(), 0);
    // 1..100: the 95th
    assertEquals(95.0, withJcts(100).p95JctS(), 0);
  }

  @Test(timeout = 60_000)
  public void emptyAndAllUnfinished() {
    SimResult none = new SimResult("p", List.of(), List.of(), 0, 4, 0, 0, 0, 0);
    assertTrue(Double.isNaN(none.avgJctS()));
    assertTrue(Double.isNaN(none.p95JctS()));
    assertEquals(0.0, none.totalWeightedJctS(), 0);
    assertEquals(0.0, none.makespanS(), 0);
    assertEquals(0.0, none.gpuUtilization(), 0);
    assertEquals(0.0, none.replanAvgMs(), 0);
    SimResult stuck = new SimResult("p", List.of(new JobOutcome("A", 1, "m", 1, 1, 300, -1)),
        List.of(), 0, 1, 0, 0, 0, 0);
    assertEquals(1, stuck.unfinishedJobs());
    assertTrue(Double.isNaN(stuck.avgJctS()));
    assertEquals(0.0, stuck.makespanS(), 0);
  }

  private static SimResult withJcts(int n) {
    // job i arrives at 10 s x i and takes i seconds; listed in reverse so sorting matters
    List<JobOutcome> jobs = new ArrayList<>();
    for (int i = n; i >= 1; i--) {
      jobs.add(new JobOutcome("j" + i, 1, "m", 1, 1, 10_000L * i, 10_000L * i + 1000L * i));
    }
    return new SimResult("p", jobs, List.of(), 0, 1, 0, 0, 0, 0);
  }
}
