package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.FreeGpuIndex;
import io.hare.core.policy.GpuView;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeCluster;
import io.hare.testing.FakeCluster.Gpu;
import io.hare.testing.FakeJob;
import java.util.List;
import java.util.OptionalInt;
import org.junit.Test;

/**
 * A dispatch that placed nothing can place something later with no event in between and before
 * any time it announced ({@link PriorityDispatcher#holdLapsesMs}): a busy GPU that a hold read
 * passes its expected end. So a pass may not be skipped just because no event came and no
 * announced time passed (docs/performance.md, "Skipping a pass when nothing changed"); a skip
 * would have to stop at such ends too. By hand, times in ms:
 *
 * <ul>
 *   <li>V100 {@code b} runs x's task, expected to end at 1000; V100 {@code f} is free; two K80s
 *       are free (only h1 and h2 can run there, 100x slower);
 *   <li>h1 and h2 are between rounds (their syncs end at 3000 and 2000), ranked first and second;
 *       l, ranked third, has a ready task of 1950 ms that runs on V100s only.
 * </ul>
 *
 * <p>At 100: h1 prefers {@code b}, due by 3000, to the free V100 (equal finish, busy first);
 * h2 holds {@code f} until 2000; l cannot backfill it (100 + 1950 &gt; 2000) and has no other
 * V100: nothing placed. From 999, {@code b} ends at most a millisecond from now, which a hold
 * reads as past its estimate ({@code RoundPlacer}'s {@code dueBy}), so it no longer counts as
 * due: h1 holds {@code f} until 3000, h2 waits for {@code b}, and l backfills {@code f} (999 +
 * 1950 &lt;= 3000).
 */
public class TimeAloneTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");
  private static final TaskTimeModel TIMES = ProfileTable.builder()
      .put("h1", "v100", 1000, 0).put("h1", "k80", 100_000, 3000)
      .put("h2", "v100", 1000, 0).put("h2", "k80", 100_000, 2000)
      .put("x", "v100", 1000, 0)
      .put("l", "v100", 1950, 0).build();

  @Test(timeout = 60_000)
  public void aBusyGpuAHoldReadPassingItsEndTurnsAnEmptyPassIntoAPlacement() {
    Gpu b = new Gpu("b", V100, true);
    Gpu f = new Gpu("f", V100, false);
    Gpu k1 = new Gpu("k1", K80, false);
    Gpu k2 = new Gpu("k2", K80, false);
    FakeJob h1 = new FakeJob("h1", "h1", 1, OptionalInt.of(3), TIMES);
    FakeJob h2 = new FakeJob("h2", "h2", 1, OptionalInt.of(3), TIMES);
    FakeJob x = new FakeJob("x", "x", 1, OptionalInt.of(3), TIMES);
    FakeJob l = new FakeJob("l", "l", 1, OptionalInt.of(3), TIMES);
    HareTracker tracker = new HareTracker();
    // h1 and h2 ran their first round on the K80s, computed at 0, and sync until 3000 and 2000
    tracker.started(h1, k1, -100_000);
    tracker.computed(h1, k1, 0);
    tracker.started(h2, k2, -100_000);
    tracker.computed(h2, k2, 0);
    tracker.started(x, b, 0); // b frees at 1000, expected
    x.running = 1;
    l.ready = 1;
    RoundRanks ranks = new RoundRanks();
    ranks.put(h1, 1);
    ranks.put(h2, 2);
    ranks.put(l, 3);
    PriorityDispatcher d = new PriorityDispatcher(ranks, tracker, 1000);
    for (FakeJob j : List.of(h1, h2, l, x)) {
      d.refresh(j);
    }
    FakeCluster c = new FakeCluster(List.of(h1, h2, l, x), List.of(b, f, k1, k2), TIMES);
    List<GpuView> free = List.of(f, k1, k2);
    FreeGpuIndex index = new FreeGpuIndex();

    assertEquals(List.of(), d.assign(c, free, 100, tracker, index, List.of()));
    long announced = d.holdLapsesMs(); // h2's hold of f lapses at 2000 + 1000
    assertEquals(3000, announced);

    // nothing happens: while b is not yet read as past its end, still nothing
    assertEquals(List.of(), d.assign(c, free, 998, tracker, index, List.of()));
    // from 999 on (b's end, 1000, is now + 1: read as past its estimate), well before the
    // announced time, the same state places l on f
    assertTrue(999 < announced);
    assertEquals(List.of(new Assignment("f", "l")),
        d.assign(c, free, 999, tracker, index, List.of()));
  }
}
