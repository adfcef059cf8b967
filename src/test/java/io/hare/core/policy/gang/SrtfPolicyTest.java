package io.hare.core.policy.gang;

import static io.hare.core.policy.gang.GangRuns.completion;
import static io.hare.core.policy.gang.GangRuns.job;
import static io.hare.core.policy.gang.GangRuns.roundStart;
import static io.hare.core.policy.gang.GangRuns.types;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimResult;
import java.util.Set;
import org.junit.Test;

/** srtf: shortest remaining time first, gang, preempting only at round boundaries. */
public class SrtfPolicyTest {

  /** "cnn": 100 ms compute + 50 ms sync per round on v100 (a round: 150 ms); 400 + 50 on k80. */
  private static final ProfileTable TIMES = ProfileTable.builder()
      .put("cnn", "v100", 100, 50).put("cnn", "k80", 400, 50).build();

  @Test(timeout = 60_000)
  public void shortArrivalPreemptsLongJobAtItsNextRoundBoundary() throws Exception {
    // long: 10 rounds of 150 ms from 0. short (1 round, 150 ms left < long's 1350 ms) arrives
    // at 120, during long's sync: the GPUs compute nothing then but are held. At long's boundary
    // (150) short takes them; long waits and resumes its round 1 when short is done at 300.
    SimResult r = GangRuns.run(SrtfPolicy.NAME, "v100=2", TIMES,
        job("long", 0, "cnn", 2, 10), job("short", 120, "cnn", 2, 1));
    assertEquals(0, roundStart(r, "long", 0));
    assertEquals(150, roundStart(r, "short", 0));
    assertEquals(300, completion(r, "short"));
    assertEquals(300, roundStart(r, "long", 1));
    assertEquals(300 + 9 * 150, completion(r, "long"));
  }

  @Test(timeout = 60_000)
  public void waitingJobsRunShortestRemainingFirst() throws Exception {
    // a holds both v100 until 150. b (4 rounds) arrived before c (2 rounds); at 150 c, shorter,
    // runs first (150..450), then b (450..1050).
    SimResult r = GangRuns.run(SrtfPolicy.NAME, "v100=2", TIMES,
        job("a", 0, "cnn", 2, 1), job("b", 10, "cnn", 2, 4), job("c", 20, "cnn", 2, 2));
    assertEquals(150, roundStart(r, "c", 0));
    assertEquals(450, roundStart(r, "b", 0));
    assertEquals(1050, completion(r, "b"));
  }

  @Test(timeout = 60_000)
  public void heteroVariantPlacesOnFastestTypeWithKAvailableAndMovesUpAtABoundary()
      throws Exception {
    // a (1 round) takes the v100s; b (3 rounds) arrives at 10 and starts on k80 (the fastest
    // type with 2 free) at 10. a ends at 150; at b's first boundary (460) v100 is free and
    // faster, so b moves there for its last two rounds.
    SimResult r = GangRuns.run(SrtfPolicy.HETERO_NAME, "v100=2,k80=2", TIMES,
        job("a", 0, "cnn", 2, 1), job("b", 10, "cnn", 2, 3));
    assertEquals(Set.of("v100"), types(r, "a", 0));
    assertEquals(10, roundStart(r, "b", 0));
    assertEquals(Set.of("k80"), types(r, "b", 0));
    assertEquals(460, roundStart(r, "b", 1));
    assertEquals(Set.of("v100"), types(r, "b", 1));
    assertEquals(460 + 2 * 150, completion(r, "b"));
  }

  /**
   * Three one-task jobs, two GPUs (one v100, one k80). Averaged over the two GPUs a round takes
   * cnn 300 ms, gnn 275, mid 290; on the fastest type cnn 150, gnn 250, mid 290.
   */
  private static final ProfileTable THREE = ProfileTable.builder()
      .put("cnn", "v100", 100, 50).put("cnn", "k80", 400, 50)
      .put("gnn", "v100", 200, 50).put("gnn", "k80", 250, 50)
      .put("mid", "v100", 240, 50).put("mid", "k80", 240, 50).build();

  @Test(timeout = 60_000)
  public void classicSrtfIsBlindToTypes() throws Exception {
    // type-blind: remaining time on the average GPU, so gnn and mid run first and cnn waits
    SimResult r = GangRuns.run(SrtfPolicy.NAME, "v100=1,k80=1", THREE,
        job("c", 0, "cnn", 1, 1), job("g", 0, "gnn", 1, 1), job("m", 0, "mid", 1, 1));
    assertEquals(0, roundStart(r, "g", 0));
    assertEquals(0, roundStart(r, "m", 0));
    assertTrue(roundStart(r, "c", 0) > 0);
  }

  @Test(timeout = 60_000)
  public void smithVariantRanksByRemainingTimeOverWeight() throws Exception {
    // one v100: c (cnn) is shorter than m (mid), but m weighs 10: srtf-hetero runs c first,
    // smith-hetero m
    JobSpec c = job("c", 0, "cnn", 1, 1);
    JobSpec m = new JobSpec("m", 0, 10, "mid", 1, 1);
    SimResult srtf = GangRuns.run(SrtfPolicy.HETERO_NAME, "v100=1", THREE, c, m);
    assertEquals(0, roundStart(srtf, "c", 0));
    assertTrue(roundStart(srtf, "m", 0) > 0);
    SimResult smith = GangRuns.run(SrtfPolicy.SMITH_NAME, "v100=1", THREE, c, m);
    assertEquals(0, roundStart(smith, "m", 0));
    assertTrue(roundStart(smith, "c", 0) > 0);
  }

  @Test(timeout = 60_000)
  public void heteroVariantRanksByTheFastestType() throws Exception {
    // on the fastest type cnn and gnn are shortest: they run first, mid waits
    SimResult r = GangRuns.run(SrtfPolicy.HETERO_NAME, "v100=1,k80=1", THREE,
        job("c", 0, "cnn", 1, 1), job("g", 0, "gnn", 1, 1), job("m", 0, "mid", 1, 1));
    assertEquals(0, roundStart(r, "c", 0));
    assertEquals(0, roundStart(r, "g", 0));
    assertTrue(roundStart(r, "m", 0) > 0);
  }
}
