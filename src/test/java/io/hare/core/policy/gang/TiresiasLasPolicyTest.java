package io.hare.core.policy.gang;

import static io.hare.core.policy.gang.GangRuns.job;
import static io.hare.core.policy.gang.GangRuns.roundStart;
import static io.hare.core.policy.gang.GangRuns.types;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ConfigException;
import io.hare.core.JobSpec;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimResult;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** tiresias-las: discretized 2D-LAS with PromoteKnob, gang, type-blind. */
public class TiresiasLasPolicyTest {

  /** One round: 100 ms compute on v100, no sync; 300 ms on k80. */
  private static final ProfileTable TIMES = ProfileTable.builder()
      .put("cnn", "v100", 100, 0).put("cnn", "k80", 300, 0).build();

  /** Two queues split at 0.2 GPU-seconds (200 GPU-ms: two rounds of a 1-GPU job). */
  private static Map<String, String> conf(String knob) {
    return Map.of(GangKeys.TIRESIAS_QUEUE_THRESHOLDS_GPU_S, "0.2",
        GangKeys.TIRESIAS_PROMOTE_KNOB, knob);
  }

  /**
   * long (10 rounds) from 0 on the only GPU, and a stream of 2-round jobs s1..s5 arriving at 50,
   * 350, 550, 750 and 950. s1 (top queue) waits at long's boundary at 100: long is also in the top
   * queue and holds the GPU. At 200 long has 200 GPU-ms, is demoted, and s1 takes the GPU
   * (200..400). Each later s_i arrives in the top queue while the one before runs.
   */
  private static SimResult stream(String knob) throws Exception {
    JobSpec[] jobs = {job("long", 0, "cnn", 1, 10), job("s1", 50, "cnn", 1, 2),
        job("s2", 350, "cnn", 1, 2), job("s3", 550, "cnn", 1, 2), job("s4", 750, "cnn", 1, 2),
        job("s5", 950, "cnn", 1, 2)};
    return GangRuns.run(TiresiasLasPolicy.NAME, conf(knob), 0, "v100=1", TIMES, jobs);
  }

  @Test(timeout = 60_000)
  public void demotesAfterTheThresholdAtARoundBoundary() throws Exception {
    SimResult r = stream("0");
    assertEquals(100, roundStart(r, "long", 1)); // same queue, holding: s1 may not pass it
    assertEquals(200, roundStart(r, "s1", 0)); // long demoted at 200: s1 goes first
  }

  @Test(timeout = 60_000)
  public void withoutPromotionTheLongJobStarves() throws Exception {
    SimResult r = stream("0");
    // s1..s5 run back to back 200..1200; long waits in the lower queue all along
    assertEquals(1000, roundStart(r, "s5", 0));
    assertEquals(1200, roundStart(r, "long", 2));
  }

  @Test(timeout = 60_000)
  public void promoteKnobReturnsAStarvingJobToTheTopQueue() throws Exception {
    // knob 1: long ran 200 ms, so after waiting 200 ms (at 400) it goes back to the top queue,
    // behind s2 (arrived 350) but ahead of s3 (arrived 550): it runs again at 600.
    SimResult r = stream("1");
    assertEquals(400, roundStart(r, "s2", 0));
    assertEquals(600, roundStart(r, "long", 2));
    assertTrue(roundStart(r, "s3", 0) > 600);
  }

  @Test(timeout = 60_000)
  public void placementIsBlindToGpuTypes() throws Exception {
    // One 1-GPU job on an idle v100 + k80 cluster: a heterogeneity-aware policy would always
    // take the v100; Tiresias draws among the free GPUs, so some seeds land on the k80.
    Set<String> seen = new HashSet<>();
    for (long seed = 1; seed <= 20; seed++) {
      SimResult r = GangRuns.run(TiresiasLasPolicy.NAME, Map.of(), seed, "v100=1,k80=1", TIMES,
          job("j", 0, "cnn", 1, 1));
      seen.addAll(types(r, "j", 0));
    }
    assertEquals(Set.of("v100", "k80"), seen);
  }

  @Test(timeout = 60_000)
  public void rejectsThresholdsThatDoNotIncrease() {
    try {
      Policies.create(TiresiasLasPolicy.NAME, new PolicyConfig(
          Map.of(GangKeys.TIRESIAS_QUEUE_THRESHOLDS_GPU_S, "7200,3250"), 0));
      throw new AssertionError("decreasing thresholds accepted");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("queue-thresholds-gpu-s"));
    }
  }
}
