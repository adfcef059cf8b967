package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.ConfigException;
import io.hare.core.JobSpec;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.testing.ScheduleChecks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;

/**
 * hare's holds across a sync, on one GPU where every time can be worked out by hand: a heavy job
 * of 1 s tasks and 0.5 s syncs, and a light job of long or short tasks.
 */
public class SyncHoldTest {

  private static final ProfileTable TIMES = ProfileTable.builder()
      .put("fast", "v100", 1000, 500)
      .put("long", "v100", 3000, 0)
      .put("short", "v100", 400, 0)
      .put("slowsync", "v100", 1000, 3000)
      .put("longer", "v100", 3500, 0).build();
  private static final ClusterSpec ONE = ClusterSpec.parse("v100=1");

  /** Runs hare with exact plans off: holds are priority dispatch's. */
  private static SimResult run(Map<String, String> conf, List<JobSpec> jobs) throws Exception {
    Map<String, String> c = new HashMap<>(conf);
    c.put(HareKeys.EXACT_MAX_TASKS, "0");
    SchedulingPolicy p = Policies.create(HarePolicy.NAME, new PolicyConfig(c, 1));
    SimResult r = new Simulator(ONE, jobs, TIMES, SimOptions.defaults()).run(p);
    ScheduleChecks.assertValid(r, ONE, jobs, TIMES, 0);
    return r;
  }

  /** heavy (weight 5, fast tasks) and light (weight 1, tasks of {@code model}), k = 1. */
  private static List<JobSpec> heavyAnd(String model, int rounds) {
    return List.of(new JobSpec("heavy", 0, 5, "fast", 1, rounds),
        new JobSpec("light", 0, 1, model, 1, rounds));
  }

  private static long done(SimResult r, String job) {
    return r.jobs().stream().filter(o -> o.jobId().equals(job)).findFirst().orElseThrow()
        .completionMs();
  }

  private static List<Long> starts(SimResult r, String job) {
    return r.tasks().stream().filter(t -> t.jobId().equals(job)).map(TaskRecord::startMs)
        .sorted().collect(Collectors.toList());
  }

  @Test(timeout = 60_000)
  public void theGpuWaitsOutTheSyncOfTheJobRankedFirst() throws Exception {
    List<JobSpec> jobs = heavyAnd("long", 3);
    SimResult held = run(Map.of(), jobs);
    // heavy: tasks at 0, 1.5 and 3 s, each after the last one's 0.5 s sync; light behind it
    assertEquals(List.of(0L, 1500L, 3000L), starts(held, "heavy"));
    assertEquals(4500L, done(held, "heavy"));
    assertEquals(List.of(4000L, 7000L, 10000L), starts(held, "light"));
    assertEquals(5 * 4.5 + 13.0, held.totalWeightedJctS(), 1e-9);

    // without holds the GPU goes to light's 3 s task at every one of heavy's syncs
    SimResult greedy = run(Map.of(HareKeys.SYNC_HOLD_ENABLED, "false"), jobs);
    assertEquals(List.of(0L, 4000L, 8000L), starts(greedy, "heavy"));
    assertEquals(5 * 9.5 + 12.0, greedy.totalWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void aTaskThatEndsBeforeTheSyncDoesRunsInItsGap() throws Exception {
    SimResult r = run(Map.of(), heavyAnd("short", 3));
    assertEquals(List.of(0L, 1500L, 3000L), starts(r, "heavy"));
    // 0.4 s fits in heavy's first sync gap (1.0-1.5 s); its next round, ready at 1.4 s, would
    // end at 1.8 s and waits; it fills the second gap at 2.5 s, its last round follows heavy
    assertEquals(List.of(1000L, 2500L, 4000L), starts(r, "light"));
    assertEquals(4500L, done(r, "heavy"));
    assertEquals(4400L, done(r, "light"));
  }

  @Test(timeout = 60_000)
  public void aLastRoundHoldsNothing() throws Exception {
    // heavy's single round ends in a sync with nothing after it: light starts at once
    SimResult r = run(Map.of(), heavyAnd("long", 1));
    assertEquals(List.of(1000L), starts(r, "light"));
  }

  @Test(timeout = 60_000)
  public void aSyncLongAgainstTheJobsTaskHoldsNoFreeGpu() throws Exception {
    // heavy: 2 rounds of a 1 s task and a 3 s sync; light: one 3.5 s task, too long for the gap
    List<JobSpec> jobs = List.of(new JobSpec("heavy", 0, 5, "slowsync", 1, 2),
        new JobSpec("light", 0, 1, "longer", 1, 1));
    // the sync (3 s) is over the default share (0.5 x 1 s): light runs in it, 1.0-4.5 s, and
    // heavy's second round follows: 4.5-5.5 s, synced at 8.5 s
    SimResult r = run(Map.of(), jobs);
    assertEquals(List.of(0L, 4500L), starts(r, "heavy"));
    assertEquals(List.of(1000L), starts(r, "light"));
    assertEquals(5 * 8.5 + 4.5, r.totalWeightedJctS(), 1e-9);
    // held whatever the sync's length, the GPU idles 1-4 s: heavy ends 0.5 s sooner, light 4 s
    // later, 1.5 s weighted worse
    SimResult held = run(Map.of(HareKeys.SYNC_HOLD_MAX_SHARE, "1000000"), jobs);
    assertEquals(List.of(0L, 4000L), starts(held, "heavy"));
    assertEquals(List.of(5000L), starts(held, "light"));
    assertEquals(5 * 8.0 + 8.5, held.totalWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void aBadHoldShareIsNamed() throws Exception {
    try {
      Policies.create(HarePolicy.NAME, new PolicyConfig(
          Map.of(HareKeys.SYNC_HOLD_MAX_SHARE, "-0.5"), 1));
      fail("a negative share accepted");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(HareKeys.SYNC_HOLD_MAX_SHARE));
      assertTrue(e.getMessage(), e.getMessage().contains("-0.5"));
    }
  }
}
