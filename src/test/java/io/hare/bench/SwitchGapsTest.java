package io.hare.bench;

import static org.junit.Assert.assertEquals;

import io.hare.embedded.TaskEvents;
import java.util.List;
import org.junit.Test;

/**
 * Gaps are read per GPU slot from the tasks' own records, split by whether the next task is of
 * the same job, and counted only inside the busy window.
 */
public class SwitchGapsTest {

  private static TaskEvents.Attempt task(String app, String host, long start, long end) {
    return new TaskEvents.Attempt(app, 0, 0, host, "v100", "c-" + app + start, start, end, 0);
  }

  @Test(timeout = 60_000)
  public void gapsPerSlotSplitBySameAndCrossJobInsideTheWindow() {
    List<TaskEvents.Attempt> tasks = List.of(
        task("a", "n1", 0, 1000), task("a", "n1", 1010, 2000), // same job, 10 ms
        task("b", "n1", 2150, 3000), // another job, 150 ms
        task("b", "n1", 3500, 9000), // ends after the window: not counted
        task("b", "n2", 500, 1500));
    SwitchGaps g = SwitchGaps.of(tasks, 0, 5000);
    assertEquals(List.of(10L), g.sameJob());
    assertEquals(List.of(150L), g.crossJob());
    assertEquals(990 + 850, g.taskMs());
    assertEquals(160.0 / (160 + 1840), g.overheadFraction(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void aGapBeforeTheWindowOpensIsNoSwitch() {
    List<TaskEvents.Attempt> tasks = List.of(
        // a's first gap starts before the window: idle while b's AM started, not a switch
        task("a", "n1", 0, 1000), task("a", "n1", 1900, 3000),
        task("b", "n1", 3020, 4000),
        task("b", "n2", 2000, 2500));
    SwitchGaps g = SwitchGaps.of(tasks, 1500, 10_000);
    assertEquals(List.of(), g.sameJob());
    assertEquals(List.of(20L), g.crossJob());
  }
}
