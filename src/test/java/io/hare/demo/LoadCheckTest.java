package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.SchedulerJournal;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The load warning: a task's launch or start-up against its time on the emulated GPU. */
public class LoadCheckTest {

  private static final String APP = "application_1_0001";

  /** Graphsage tasks paced at 1000 ms: 1000 ms on the V100, 2200 ms on the K80. */
  private static DemoResult run(long launchMs, long startupMs) {
    List<DemoResult.Task> tasks = List.of(
        new DemoResult.Task(APP, 0, 0, "h1", "v100", 0, "c1", 10_000, 10_000 + 1000 + startupMs,
            "SUCCEEDED"),
        new DemoResult.Task(APP, 0, 1, "h2", "k80", 0, "c2", 10_000, 10_000 + 2200 + startupMs,
            "SUCCEEDED"),
        new DemoResult.Task(APP, 0, 2, "h2", "k80", 1, "c3", 10_000, 10_000 + 2200 + startupMs,
            "SUCCEEDED"),
        new DemoResult.Task(APP, 0, 3, "h2", "k80", 1, "c4", 10_000, -1, "LOST"));
    List<SchedulerJournal.Entry> journal = List.of(
        started("c1", 10_000 - launchMs), started("c2", 10_000 - launchMs),
        started("c3", 10_000 - launchMs), started("c4", 10_000 - 5 * launchMs));
    return new DemoResult("hare", List.of(new DemoResult.Job(APP, "a", 1, "graphsage", 1, 4, 0,
        20_000, "SUCCEEDED", true)), tasks, List.of(), journal, Map.of("h1", 1, "h2", 2),
        Map.of("h1", "v100", "h2", "k80"));
  }

  private static SchedulerJournal.Entry started(String container, long ms) {
    return new SchedulerJournal.Entry(SchedulerJournal.Kind.STARTED, ms, APP, container, "h",
        "v100", 0, false);
  }

  @Test(timeout = 60_000)
  public void mediansOfLaunchStartUpAndGpuTime() {
    LoadCheck.Medians m = LoadCheck.medians(run(300, 400), 1000);
    assertEquals("container c4's launch took 5 x, the median of 4 is the middle two's mean",
        300, m.launchMs(), 1e-9);
    assertEquals("the lost attempt has no start-up", 400, m.startupMs(), 1e-9);
    assertEquals(2200, m.gpuMs(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void warnsAboveHalfTheMedianGpuTimeAndNamesTheFigures() {
    // half the median GPU time (2200 ms) is 1100 ms
    assertFalse(LoadCheck.warning(run(1100, 1000), 1000).isPresent());
    String w = LoadCheck.warning(run(1200, 1000), 1000).orElseThrow();
    assertTrue(w, w.contains("1.2 s") && w.contains("2.2 s") && w.contains("50 %"));
    assertTrue(LoadCheck.warning(run(100, 1150), 1000).isPresent());
    assertFalse("a longer --task-ms makes the same overheads small",
        LoadCheck.warning(run(1200, 1150), 2000).isPresent());
  }

  @Test(timeout = 60_000)
  public void noMeasureNoWarning() {
    assertFalse(LoadCheck.warning(new LoadCheck.Medians(Double.NaN, Double.NaN, 1000))
        .isPresent());
    DemoResult other = new DemoResult("hare", List.of(new DemoResult.Job(APP, "a", 1, "bert", 1,
        1, 0, 5000, "SUCCEEDED", true)), List.of(new DemoResult.Task(APP, 0, 0, "h1", "v100", 0,
        "c1", 1000, 4000, "SUCCEEDED")), List.of(), List.of(started("c1", 0)), Map.of("h1", 1),
        Map.of("h1", "v100"));
    assertFalse("a model the demo does not pace has no GPU time to compare with",
        LoadCheck.warning(other, 1000).isPresent());
    assertEquals(Double.NaN, LoadCheck.median(new double[0]), 0);
    assertEquals(2, LoadCheck.median(new double[] {3, 1, 2}), 0);
  }
}
