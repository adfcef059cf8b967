package io.hare.core.policy.gang;

import static io.hare.core.policy.gang.GangRuns.job;
import static io.hare.core.policy.gang.GangRuns.roundStart;
import static io.hare.core.policy.gang.GangRuns.types;
import static org.junit.Assert.assertEquals;

import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimResult;
import java.util.Set;
import org.junit.Test;

/** gavel-fifo: arrival order, k GPUs at once on the fastest type that has k free, else wait. */
public class GavelFifoPolicyTest {

  /** "cnn": a round takes 100 ms on v100, 400 ms on k80 (no sync, to keep the arithmetic plain). */
  private static final ProfileTable TIMES = ProfileTable.builder()
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 400, 0).build();

  @Test(timeout = 60_000)
  public void takesFastestTypeWithKFreeAndOtherwiseWaits() throws Exception {
    // a: 1 v100 for 3 rounds (0..300). b (k=2) at 10: one v100 free only, k80 has 2: k80.
    // c (k=2) at 20: one v100 free, k80 taken: c waits, and does not start on 1 free v100 plus
    // anything else; it gets both v100 when a is done at 300.
    SimResult r = GangRuns.run(GavelFifoPolicy.NAME, "v100=2,k80=2", TIMES,
        job("a", 0, "cnn", 1, 3), job("b", 10, "cnn", 2, 1), job("c", 20, "cnn", 2, 2));
    assertEquals(0, roundStart(r, "a", 0));
    assertEquals(Set.of("v100"), types(r, "a", 0));
    assertEquals(10, roundStart(r, "b", 0));
    assertEquals(Set.of("k80"), types(r, "b", 0));
    assertEquals(300, roundStart(r, "c", 0));
    assertEquals(Set.of("v100"), types(r, "c", 0));
    assertEquals(400, roundStart(r, "c", 1)); // keeps its GPUs: next round right after the first
  }

  @Test(timeout = 60_000)
  public void headOfLineBlocksLaterJobsThatWouldFit() throws Exception {
    // a holds 2 of 3 v100 until 200. b (k=2) at 10 waits for 2 free; c (k=1) at 20 would fit
    // on the free v100 but may not pass b (Gavel's FIFO breaks out of its loop at the head).
    SimResult r = GangRuns.run(GavelFifoPolicy.NAME, "v100=3", TIMES,
        job("a", 0, "cnn", 2, 2), job("b", 10, "cnn", 2, 1), job("c", 20, "cnn", 1, 1));
    assertEquals(0, roundStart(r, "a", 0));
    assertEquals(200, roundStart(r, "b", 0));
    assertEquals(200, roundStart(r, "c", 0));
  }

  @Test(timeout = 60_000)
  public void heldGpusStayIdleDuringSync() throws Exception {
    // a (k=2) computes 100 ms and syncs 100 ms per round: its 2 GPUs are free of tasks during
    // 100..200 and 300..400 but held, so b (k=1, arrived at 10) waits for a to finish at 400.
    ProfileTable slowSync = ProfileTable.builder().put("cnn", "v100", 100, 100).build();
    SimResult r = GangRuns.run(GavelFifoPolicy.NAME, "v100=2", slowSync,
        job("a", 0, "cnn", 2, 2), job("b", 10, "cnn", 1, 1));
    assertEquals(200, roundStart(r, "a", 1));
    assertEquals(400, roundStart(r, "b", 0));
  }
}
