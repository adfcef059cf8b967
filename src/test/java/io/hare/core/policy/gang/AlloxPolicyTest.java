package io.hare.core.policy.gang;

import static io.hare.core.policy.gang.GangRuns.completion;
import static io.hare.core.policy.gang.GangRuns.job;
import static io.hare.core.policy.gang.GangRuns.roundStart;
import static io.hare.core.policy.gang.GangRuns.types;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ConfigException;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.profile.ProfileTable;
import io.hare.core.policy.gang.AlloxMatching.Option;
import io.hare.sim.SimResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** allox: min-cost matching of jobs to (machine, position), cost = position x processing time. */
public class AlloxPolicyTest {

  /**
   * Per round, no sync: "cnn" 100 ms on v100 and 700 on k80 (7x), "gnn" 200 on v100 and 250 on
   * k80 (barely faster on v100).
   */
  private static final ProfileTable TIMES = ProfileTable.builder()
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 700, 0)
      .put("gnn", "v100", 200, 0).put("gnn", "k80", 250, 0).build();

  @Test(timeout = 60_000)
  public void matchesTwoJobsToTwoTypesByHand() throws Exception {
    // Two 2-GPU jobs, one round each, at 0; 2 v100 and 2 k80 make one machine per type.
    // Sum of completion times (position x time) of each choice:
    //   cnn->v100, gnn->k80: 100 + 250 = 350   <- the minimum
    //   cnn->k80,  gnn->v100: 700 + 200 = 900
    //   both v100, cnn first: 2x100 + 200 = 400;  gnn first: 2x200 + 100 = 500
    //   both k80, gnn first: 2x250 + 700 = 1200;  cnn first: 2x700 + 250 = 1650
    // gnn arrived first and is fastest on v100 (gavel-fifo would give it v100, cnn then k80: 900).
    SimResult r = GangRuns.run(AlloxPolicy.NAME, "v100=2,k80=2", TIMES,
        job("gnn-job", 0, "gnn", 2, 1), job("cnn-job", 0, "cnn", 2, 1));
    assertEquals(Set.of("v100"), types(r, "cnn-job", 0));
    assertEquals(Set.of("k80"), types(r, "gnn-job", 0));
    assertEquals(0, roundStart(r, "cnn-job", 0));
    assertEquals(0, roundStart(r, "gnn-job", 0));
    assertEquals(100, completion(r, "cnn-job"));
    assertEquals(250, completion(r, "gnn-job"));
  }

  @Test(timeout = 60_000)
  public void queuesBehindAFasterTypeWhenThatIsCheaper() throws Exception {
    // Two 1-GPU cnn jobs, one v100 and one k80: x on v100 and y on k80 costs 100 + 700 = 800;
    // both on v100 costs 2x100 + 100 = 300. So y waits for the v100 (k80 stays idle) and starts
    // when x is done at 100; the matching is solved again then, with only y, which picks v100.
    SimResult r = GangRuns.run(AlloxPolicy.NAME, "v100=1,k80=1", TIMES,
        job("x", 0, "cnn", 1, 1), job("y", 0, "cnn", 1, 1));
    assertEquals(0, roundStart(r, "x", 0));
    assertEquals(100, roundStart(r, "y", 0));
    assertEquals(Set.of("v100"), types(r, "y", 0));
    assertTrue(r.tasks().stream().noneMatch(t -> t.gpuType().equals("k80")));
  }

  @Test(timeout = 60_000)
  public void matchingStartsTheShortestJobOfAMachineFirst() {
    AlloxMatching.loadNatives();
    // One machine, three jobs of 300, 100 and 200 ms: shortest processing time first.
    int[] run = AlloxMatching.firstRunners(List.of(
        List.of(new Option(0, 300)), List.of(new Option(0, 100)), List.of(new Option(0, 200))),
        new int[] {1});
    assertArrayEquals(new int[] {-1, 0, -1}, run);
  }

  @Test(timeout = 60_000)
  public void matchingNeedsMorePositionsThanItFirstBuilds() {
    AlloxMatching.loadNatives();
    // 30 jobs; class 0 runs each in 1 ms, class 1 in 1000 ms, one machine each. Position p on
    // class 0 costs p <= 30 < 1000, so all 30 queue on class 0 and class 1 starts nothing. The
    // first graph has 16 positions per class; the answer needs the doubled one.
    List<List<Option>> jobs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      jobs.add(List.of(new Option(0, 1), new Option(1, 1000)));
    }
    int[] run = AlloxMatching.firstRunners(jobs, new int[] {1, 1});
    assertEquals(1, java.util.Arrays.stream(run).filter(c -> c == 0).count());
    assertEquals(0, java.util.Arrays.stream(run).filter(c -> c == 1).count());
  }

  @Test(timeout = 60_000)
  public void rejectsAlphaOutsideZeroToOne() {
    try {
      Policies.create(AlloxPolicy.NAME, new PolicyConfig(Map.of(GangKeys.ALLOX_ALPHA, "0"),
          0));
      throw new AssertionError("alpha 0 accepted");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(GangKeys.ALLOX_ALPHA));
    }
  }
}
