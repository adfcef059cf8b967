package io.hare.demo;

import static org.junit.Assert.assertEquals;

import io.hare.demo.JobGaps.Gap;
import io.hare.demo.JobGaps.Kind;
import java.util.List;
import org.junit.Test;

/** The idle stretches of a job, classified from its submission, task and sync events. */
public class JobGapsTest {

  private static final String APP = "application_1_0001";

  private static DemoResult.Task task(int round, int index, long start, long end) {
    return new DemoResult.Task(APP, round, index, "127.0.0.2", "v100", index, "c" + round + index,
        start, end, end >= 0 ? "SUCCEEDED" : "LOST");
  }

  private static DemoResult.Job job(int rounds, long submit, long finish) {
    return new DemoResult.Job(APP, "a", 1, "resnet50", rounds, 2, submit, finish, "SUCCEEDED",
        true);
  }

  @Test(timeout = 60_000)
  public void amStartThenPerRoundABarrierAroundTheSyncAndTheLastRoundsSync() {
    List<DemoResult.Task> tasks = List.of(task(0, 0, 3000, 5000), task(0, 1, 3200, 5500),
        task(1, 0, 8000, 9000), task(1, 1, 8100, 9400));
    List<DemoResult.Sync> syncs = List.of(new DemoResult.Sync(APP, 0, 6000, 7000, 0),
        new DemoResult.Sync(APP, 1, 9600, 9900, 0));
    assertEquals(List.of(new Gap(Kind.AM_START, APP, 1000, 3000),
        new Gap(Kind.BARRIER, APP, 5500, 6000), new Gap(Kind.SYNC, APP, 6000, 7000),
        new Gap(Kind.BARRIER, APP, 7000, 8000), new Gap(Kind.SYNC, APP, 9600, 9900)),
        JobGaps.of(job(2, 1000, 10_000), tasks, syncs));
  }

  @Test(timeout = 60_000)
  public void withoutASyncTheWholeGapIsABarrierAndALostAttemptDoesNotEndARound() {
    List<DemoResult.Task> tasks = List.of(task(0, 0, 1000, 2000), task(0, 1, 1000, -1),
        task(0, 1, 2500, 3000), task(1, 0, 3600, 4000), task(1, 1, 3700, 4100));
    assertEquals(List.of(new Gap(Kind.BARRIER, APP, 3000, 3600)),
        JobGaps.of(job(2, 1000, 5000), tasks, List.of()));
  }

  @Test(timeout = 60_000)
  public void aSyncOverlappingTheRoundsLastTaskCountsOnlyFromItsEnd() {
    List<DemoResult.Task> tasks = List.of(task(0, 0, 500, 2000), task(1, 0, 3000, 4000));
    List<DemoResult.Sync> syncs = List.of(new DemoResult.Sync(APP, 0, 1800, 2600, 0),
        new DemoResult.Sync(APP, 1, 4100, -1, -1)); // never ended: not a gap
    assertEquals(List.of(new Gap(Kind.SYNC, APP, 2000, 2600),
        new Gap(Kind.BARRIER, APP, 2600, 3000)), JobGaps.of(job(2, 500, 5000), tasks, syncs));
  }

  @Test(timeout = 60_000)
  public void aRunsGapsAreItsJobsGaps() {
    DemoResult run = new DemoResult("hare", List.of(job(1, 0, 3000)),
        List.of(task(0, 0, 1000, 2000)), List.of(new DemoResult.Sync(APP, 0, 2100, 2500, 0)),
        List.of(), java.util.Map.of("127.0.0.2", 1), java.util.Map.of("127.0.0.2", "v100"));
    assertEquals(List.of(new Gap(Kind.AM_START, APP, 0, 1000),
        new Gap(Kind.SYNC, APP, 2100, 2500)), JobGaps.of(run));
  }
}
