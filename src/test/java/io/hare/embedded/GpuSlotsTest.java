package io.hare.embedded;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.Test;

public class GpuSlotsTest {

  private static TaskEvents.Attempt a(String c, long start, long end) {
    return new TaskEvents.Attempt("app", 0, 0, "h", "t4", c, start, end, end < 0 ? -1 : 0);
  }

  @Test(timeout = 60_000)
  public void tasksTakeTheFirstSlotFreeAtTheirStart() {
    TaskEvents.Attempt x = a("x", 0, 100);
    TaskEvents.Attempt y = a("y", 10, 50);
    TaskEvents.Attempt z = a("z", 60, 90); // y's slot is free again, x's is not
    TaskEvents.Attempt w = a("w", 100, 120); // x ended exactly at w's start: slot 0 again
    Map<TaskEvents.Attempt, Integer> s = GpuSlots.assign(List.of(w, z, y, x));
    assertEquals(0, (int) s.get(x));
    assertEquals(1, (int) s.get(y));
    assertEquals(1, (int) s.get(z));
    assertEquals(0, (int) s.get(w));
  }

  @Test(timeout = 60_000)
  public void anAttemptWithoutAnEndHoldsItsSlot() {
    TaskEvents.Attempt lost = a("lost", 0, -1);
    TaskEvents.Attempt later = a("later", 1000, 2000);
    Map<TaskEvents.Attempt, Integer> s = GpuSlots.assign(List.of(lost, later));
    assertEquals(0, (int) s.get(lost));
    assertEquals(1, (int) s.get(later));
  }

  /** A task killed with its AM frees its GPU when YARN sees the container end. */
  @Test(timeout = 60_000)
  public void aLostAttemptHoldsItsSlotUntilYarnSawItsContainerEnd() {
    TaskEvents.Attempt killed = a("killed", 0, -1);
    TaskEvents.Attempt rerun = a("rerun", 1000, 2000);
    Map<TaskEvents.Attempt, Integer> s = GpuSlots.assign(List.of(killed, rerun),
        Map.of("killed", 600L));
    assertEquals(0, (int) s.get(killed));
    assertEquals(0, (int) s.get(rerun));
  }
}
