package io.hare.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;

/**
 * The harness at small scale (4 nodes x 2 GPUs, 6 jobs): both schedulers get the allocations
 * the workload implies, never over-commit a GPU, and the phases report what they measured.
 */
public class SchedulerBenchTest {

  @Rule
  public final QuietRm quiet = new QuietRm();

  private static final BenchShape SMALL = new BenchShape(4, 2, 6, 3, 0);

  @Test(timeout = 600_000)
  public void everyRoundOfEveryJobGetsExactlyItsTasksUnderBothSchedulers() throws Exception {
    for (Contender c : Contender.values()) {
      try (BenchCluster cl = BenchCluster.start(c, SMALL)) {
        cl.submitJobs();
        cl.startJobs();
        cl.startClocks();
        while (cl.finishedJobs() < SMALL.jobs() && cl.ticks() < 200) {
          cl.tick();
          assertTrue(c + ": " + cl.busyGpus() + " GPU tasks on " + SMALL.gpus() + " GPUs",
              cl.busyGpus() <= SMALL.gpus());
        }
        assertEquals(c + ": every job finished its 3 rounds", SMALL.jobs(), cl.finishedJobs());
        for (BenchJob j : cl.jobs()) {
          for (int r = 0; r < SMALL.rounds(); r++) {
            assertEquals(c + ": job " + j.index + " round " + r + " allocations", j.k,
                j.allocations[r]);
            assertEquals(c + ": job " + j.index + " round " + r + " successes", j.k,
                j.successes[r]);
          }
        }
        Violations v = cl.violations();
        assertTrue(c + ": no over-commit, wrong size or surplus", v.none());
        assertTrue(c + ": peak " + v.peakGpusOnANode(), v.peakGpusOnANode() <= 2);
        assertEquals(c + ": nothing runs at the end", 0, cl.busyGpus());
      }
    }
  }

  /**
   * The largest runs documented (10,000 nodes, 20,000 jobs) submit more applications than a
   * queue holds by default (10,000 under either scheduler): each contender's RM takes them.
   */
  @Test(timeout = 60_000)
  public void bothSchedulersTakeTwentyThousandApplications() throws Exception {
    Path work = Files.createTempDirectory("hare-bench-test-");
    assertTrue(Contender.HARE.conf(8, work).getInt(
        SchedulerKeys.QUEUE_DEFAULT_MAXIMUM_APPLICATIONS, 0) >= 20_000);
    assertTrue(Contender.CAPACITY.conf(8, work).getInt(
        "yarn.scheduler.capacity.maximum-applications", 0) >= 20_000);
  }

  @Test(timeout = 600_000)
  public void phasesCountTheFillAndTheChurn() throws Exception {
    SchedulerBench.Settings s = new SchedulerBench.Settings(new BenchShape(4, 2, 6, 0, 0), 1, 3);
    for (Contender c : Contender.values()) {
      RunResult r = SchedulerBench.run(s, c);
      assertEquals(c, r.contender());
      assertTrue(c + ": fill placed " + r.fill().allocations(),
          r.fill().allocations() > 0 && r.fill().allocations() <= 8);
      assertTrue(c + ": churn placed " + r.churn().allocations(), r.churn().allocations() > 0);
      assertEquals(c + ": one heartbeat per node per churn tick", 4 * 3,
          r.churnHeartbeats().count());
      assertTrue(c + ": heartbeats timed", r.churn().path().heartbeatNanos() > 0);
      assertTrue(c + ": AM calls timed", r.churn().path().allocateCalls() > 0);
      assertTrue(c + ": p50 <= p99 <= max", r.churnHeartbeats().p50Ms()
          <= r.churnHeartbeats().p99Ms() && r.churnHeartbeats().p99Ms()
          <= r.churnHeartbeats().maxMs());
      assertTrue(c + ": no violation", r.violations().none());
      int passes = r.churnPassesCpu().count();
      assertTrue(c + ": heartbeats with a policy pass, Hare's only: " + passes,
          c == Contender.HARE ? passes > 0 && passes <= 4 * 3 : passes == 0);
    }
  }

  /**
   * With a least pass interval longer than a tick, heartbeats spread over the tick run at most
   * one pass per tick, and the churn still places containers.
   */
  @Test(timeout = 600_000)
  public void aPassIntervalLeavesHeartbeatsWithoutAPass() throws Exception {
    SchedulerBench.Settings s = new SchedulerBench.Settings(new BenchShape(4, 2, 6, 0, 0), 1, 3,
        1000);
    RunResult r = SchedulerBench.run(s, Contender.HARE);
    assertTrue("churn placed " + r.churn().allocations(), r.churn().allocations() > 0);
    assertEquals(4 * 3, r.churnHeartbeats().count());
    assertTrue("passes: " + r.churnPassesCpu().count(), r.churnPassesCpu().count() <= 3);
    assertTrue(r.violations().none());
  }

  /**
   * Jobs arriving during the churn are submitted between the heartbeats, get their first
   * round's containers (64 GPUs, enough for every job's round), and make Hare re-plan beyond
   * the fill's re-plan.
   */
  @Test(timeout = 600_000)
  public void jobsArrivingInTheChurnRunAndMakeHareReplan() throws Exception {
    try (BenchCluster cl = BenchCluster.start(Contender.HARE, new BenchShape(16, 4, 2, 0, 0))) {
      cl.submitJobs();
      cl.startJobs();
      cl.tick();
      int fillReplans = cl.replanTimes().nanos().size();
      cl.startClocks();
      cl.arriveEachTick(2);
      for (int t = 0; t < 4; t++) {
        cl.tick();
      }
      assertEquals("2 jobs at the start and 2 in each of 4 ticks", 2 + 2 * 4, cl.submittedJobs());
      for (BenchJob j : cl.jobs().subList(2, cl.submittedJobs() - 2)) {
        assertTrue("job " + j.index + " arrived in the churn and ran its first round",
            j.allocations[0] > 0);
      }
      assertTrue("re-plans after the fill's " + fillReplans + ": "
          + cl.replanTimes().nanos().size(), cl.replanTimes().nanos().size() > fillReplans);
      assertTrue(cl.violations().none());
    }
  }

  @Test(timeout = 600_000)
  public void negativeArrivalsAreRefused() {
    try {
      new SchedulerBench.Settings(new BenchShape(4, 2, 6, 0, 0), 2, 3, 0, -1);
      throw new AssertionError("negative arrivals accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("arrivals per tick"));
    }
  }

  @Test(timeout = 300_000)
  public void workloadIsTheSameFunctionOfIndicesForEveryone() {
    long sum = 0;
    for (int j = 0; j < 8; j++) {
      int k = BenchWorkload.tasksPerRound(j);
      assertTrue(k >= 1 && k <= 8);
      sum += k;
    }
    assertEquals("one block of 8 jobs has every k from 1 to 8", 36, sum);
    assertEquals(SchedulerBench.totalFirstAsks(8), 36);
    for (int a = 0; a < 5; a++) {
      for (String type : BenchWorkload.GPU_TYPES) {
        int d = BenchWorkload.durationTicks(3, 2, 1, a, type);
        assertTrue(d >= 1 && d <= BenchWorkload.MAX_TASK_TICKS);
      }
    }
    assertTrue("a task takes longer on a K80 than on a V100",
        BenchWorkload.durationTicks(0, 0, 0, 0, "k80")
            > BenchWorkload.durationTicks(0, 0, 0, 0, "v100"));
    assertEquals(List.of(7, 7), List.of(BenchWorkload.rounds(4, 7), BenchWorkload.rounds(9, 7)));
    int r = BenchWorkload.rounds(4, 0);
    assertTrue(r >= 50 && r <= 200);
  }

  @Test(timeout = 300_000)
  public void latencyPercentilesAreNearestRank() {
    long[] ns = new long[100];
    for (int i = 0; i < 100; i++) {
      ns[i] = (100 - i) * 1_000_000L; // 100 ms down to 1 ms
    }
    Latency l = Latency.ofNanos(ns);
    assertEquals(100, l.count());
    assertEquals(50.0, l.p50Ms(), 1e-9);
    assertEquals(99.0, l.p99Ms(), 1e-9);
    assertEquals(100.0, l.maxMs(), 1e-9);
    assertEquals(50.5, l.meanMs(), 1e-9);
    assertEquals(Latency.NONE, Latency.ofNanos(new long[0]));
  }
}
