package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import io.hare.core.GpuType;
import io.hare.core.policy.GpuView;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.Test;

/**
 * Holds and backfilling in one dispatch call: a task backfills the held GPU whose hold ends
 * first among those it ends before, the first held among equal ends; the count of GPUs a task
 * fits in matches a plain scan of every hold, whatever order the holds come in.
 */
public class TypeSlotsTest {

  private static final long NOW = 1_000;

  @Test(timeout = 10_000)
  public void backfillTakesTheTightestFitAndTheFirstHeldAmongEquals() {
    List<GpuView> free = gpus(4);
    TypeSlots s = new TypeSlots(NOW, free, new TreeMap<>());
    s.hold(NOW + 500); // takes gpu-3 (free GPUs go from the end of the list)
    s.hold(NOW + 200); // gpu-2
    s.hold(NOW + 500); // gpu-1
    s.hold(NOW + 300); // gpu-0
    assertFalse(s.hold(NOW + 900)); // none left
    assertEquals(4, s.backfillable(100));
    assertEquals(3, s.backfillable(250));
    assertEquals(2, s.backfillable(400));
    assertEquals(0, s.backfillable(600));
    assertSame(free.get(0), s.takeBackfill(250)); // ends at 300: tighter than the two at 500
    assertSame(free.get(3), s.takeBackfill(400)); // the first of the two held until 500
    assertSame(free.get(1), s.takeBackfill(400));
    assertNull(s.takeBackfill(400));
    assertSame(free.get(2), s.takeBackfill(0));
    assertEquals(0, s.backfillable(0));
  }

  @Test(timeout = 10_000)
  public void countsAndPicksAsAScanOfEveryHold() {
    Random r = new Random(7);
    for (int round = 0; round < 200; round++) {
      int n = 1 + r.nextInt(40);
      List<GpuView> free = gpus(n);
      TypeSlots s = new TypeSlots(NOW, free, new TreeMap<>());
      List<GpuView> heldGpu = new ArrayList<>();
      List<Long> heldUntil = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        long until = NOW + 10 * r.nextInt(20); // many equal ends
        s.hold(until);
        heldGpu.add(free.get(n - 1 - i));
        heldUntil.add(until);
      }
      for (int q = 0; q < 3 * n; q++) {
        askAndMaybeTake(r, s, heldGpu, heldUntil);
      }
    }
  }

  @Test(timeout = 10_000)
  public void holdsMadeBetweenBackfillsCountAndArePickedAsAScanOfEveryHold() {
    Random r = new Random(11);
    for (int round = 0; round < 200; round++) {
      int n = 1 + r.nextInt(60);
      List<GpuView> free = gpus(n);
      TypeSlots s = new TypeSlots(NOW, free, new TreeMap<>());
      List<GpuView> heldGpu = new ArrayList<>();
      List<Long> heldUntil = new ArrayList<>();
      int taken = 0;
      for (int step = 0; step < 4 * n; step++) {
        if (taken < n && r.nextInt(3) > 0) { // holds come in runs, as a pass's holds do
          int run = 1 + r.nextInt(4);
          long until = NOW + 10 * r.nextInt(20);
          for (int i = 0; i < run && taken < n; i++, taken++) {
            long u = r.nextInt(4) == 0 ? NOW + 10 * r.nextInt(20) : until;
            s.hold(u);
            heldGpu.add(free.get(n - 1 - taken));
            heldUntil.add(u);
          }
          continue;
        }
        askAndMaybeTake(r, s, heldGpu, heldUntil);
      }
    }
  }

  /**
   * A backfill question of a random compute time, answered as a scan of every hold would: how
   * many holds the task fits before, and (half the time) the one ending first taken.
   */
  private static void askAndMaybeTake(Random r, TypeSlots s, List<GpuView> heldGpu,
      List<Long> heldUntil) {
    double compute = 10 * r.nextInt(22) + (r.nextBoolean() ? 0 : 0.5);
    int expected = 0;
    int best = -1;
    for (int i = 0; i < heldGpu.size(); i++) {
      if (heldGpu.get(i) != null && NOW + compute <= heldUntil.get(i)) {
        expected++;
        if (best < 0 || heldUntil.get(i) < heldUntil.get(best)) {
          best = i;
        }
      }
    }
    assertEquals(expected, s.backfillable(compute));
    if (r.nextBoolean()) {
      GpuView got = s.takeBackfill(compute);
      if (best < 0) {
        assertNull(got);
      } else {
        assertSame(heldGpu.get(best), got);
        heldGpu.set(best, null);
      }
    }
  }

  private static List<GpuView> gpus(int n) {
    List<GpuView> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new Gpu("gpu-" + i));
    }
    return out;
  }

  private record Gpu(String id) implements GpuView {
    @Override
    public GpuType type() {
      return GpuType.of("v100");
    }

    @Override
    public String node() {
      return "n";
    }

    @Override
    public boolean busy() {
      return false;
    }

    @Override
    public String lastJobId() {
      return null;
    }
  }
}
