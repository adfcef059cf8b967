package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.ConfigException;
import io.hare.core.JobSpec;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.core.policy.hlas.HlasKeys;
import io.hare.core.policy.hlas.HlasPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.testing.ScheduleChecks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * No job starves: a long light job (weight 1, {@value #ROUNDS} rounds of one task) against a
 * stream of short heavy jobs (weight 10, one round of 2 tasks) that keeps both GPUs busy for as
 * long as the test looks. Smith's rule and least attained service both put every heavy job first,
 * so without aging the long job does not start (hare) or does not get past its first round
 * (hlas) while the stream lasts; with the default aging it progresses within the documented
 * bound. Simulated time; task times are {@value #TASK_MS} ms, arrivals one task time apart.
 */
public class StarvationTest {

  static final long TASK_MS = 600_000;
  static final int ROUNDS = 3;
  static final String LONG = "long";

  private static final ClusterSpec CLUSTER = ClusterSpec.parse("v100=2");
  private static final ProfileTable PROFILES = ProfileTable.builder()
      .put("light", "v100", TASK_MS, 0).put("heavy", "v100", TASK_MS, 0).build();

  /** Heavy jobs: enough for the long job's rounds under either policy's default bound. */
  private static int streamLength() {
    long hareNeeds = ROUNDS * (HareKeys.DEFAULT_MAX_WAIT_MS + 2 * TASK_MS) / TASK_MS;
    long hlasNeeds = Math.round((ROUNDS - 1) / HlasKeys.DEFAULT_AGING_RATE);
    return (int) Math.max(hareNeeds, hlasNeeds) + 2 * ROUNDS + 4;
  }

  private static List<JobSpec> workload() {
    List<JobSpec> jobs = new ArrayList<>();
    jobs.add(new JobSpec(LONG, 0, 1, "light", 1, ROUNDS));
    for (int i = 0; i < streamLength(); i++) {
      jobs.add(new JobSpec(String.format("h%03d", i), i * TASK_MS, 10, "heavy", 2, 1));
    }
    return jobs;
  }

  private static long lastArrivalMs() {
    return (streamLength() - 1) * TASK_MS;
  }

  private static SimResult run(String policy, Map<String, String> conf) throws Exception {
    List<JobSpec> jobs = workload();
    SimResult r = new Simulator(CLUSTER, jobs, PROFILES, SimOptions.defaults())
        .run(Policies.create(policy, new PolicyConfig(conf, 1)));
    ScheduleChecks.assertValid(r, CLUSTER, jobs, PROFILES, 0);
    assertEquals(policy + ": every job finishes once the stream ends", 0, r.unfinishedJobs());
    return r;
  }

  /** The long job's tasks, one per round, in round order. */
  private static List<TaskRecord> longTasks(SimResult r) {
    List<TaskRecord> out = new ArrayList<>(r.tasks().stream()
        .filter(t -> t.jobId().equals(LONG)).toList());
    out.sort(Comparator.comparingInt(TaskRecord::round));
    assertEquals(ROUNDS, out.size());
    return out;
  }

  private static JobOutcome outcome(SimResult r, String id) {
    return r.jobs().stream().filter(j -> j.jobId().equals(id)).findFirst().orElseThrow();
  }

  /**
   * With its defaults, which plan this small cluster exactly, and with priority dispatch alone:
   * the optimum of the jobs present would keep the long job waiting for as long as short ones
   * arrive, so the guard must outrank the exact plan too.
   */
  @Test(timeout = 60_000)
  public void hareStartsTheLongJobWithinMaxWaitPlusOneTaskTime() throws Exception {
    startsTheLongJobWithinMaxWait(Map.of());
    startsTheLongJobWithinMaxWait(Map.of(HareKeys.EXACT_MAX_TASKS, "0"));
  }

  private static void startsTheLongJobWithinMaxWait(Map<String, String> conf) throws Exception {
    SimResult r = run(HarePolicy.NAME, conf);
    long bound = HareKeys.DEFAULT_MAX_WAIT_MS + TASK_MS;
    long readyAt = 0; // arrival, then the end of the previous round
    for (TaskRecord t : longTasks(r)) {
      assertTrue(conf + ": round " + t.round() + " ready at " + readyAt + " ms started at "
          + t.startMs() + " ms, bound " + bound + " ms", t.startMs() - readyAt <= bound);
      readyAt = t.syncEndMs();
    }
    assertTrue("the long job finishes while the stream still runs",
        outcome(r, LONG).completionMs() <= lastArrivalMs());
  }

  @Test(timeout = 60_000)
  public void withoutAgingHareStarvesTheLongJobWhileTheStreamLasts() throws Exception {
    SimResult r = run(HarePolicy.NAME, Map.of(HareKeys.MAX_WAIT_MS, "0"));
    long first = longTasks(r).get(0).startMs();
    assertTrue("started at " + first + " ms, before the last heavy arrival at "
        + lastArrivalMs() + " ms", first >= lastArrivalMs());
  }

  /**
   * hlas's documented bound: after rounds worth service S, the long job (weight w, arrival a) is
   * ahead of every job arriving after a + S / (w x aging-rate), so its next round waits at most
   * for the jobs that arrived before then, and then for one GPU to free.
   */
  @Test(timeout = 60_000)
  public void hlasStartsEachRoundOnceTheJobsOfItsAgingWindowAreDone() throws Exception {
    SimResult r = run(HlasPolicy.NAME, Map.of());
    double rate = HlasKeys.DEFAULT_AGING_RATE;
    List<TaskRecord> tasks = longTasks(r);
    for (int m = 1; m < ROUNDS; m++) {
      double service = m * TASK_MS; // k = 1 task of TASK_MS on the only type, per round
      double window = service / (1 * rate);
      long ahead = 0; // when the last job that may still be ahead of it is done
      for (JobOutcome j : r.jobs()) {
        if (!j.jobId().equals(LONG) && j.arrivalMs() <= window) {
          ahead = Math.max(ahead, j.completionMs());
        }
      }
      long bound = Math.max(tasks.get(m - 1).syncEndMs(), ahead) + TASK_MS;
      TaskRecord t = tasks.get(m);
      assertTrue("round " + m + " started at " + t.startMs() + " ms, bound " + bound + " ms",
          t.startMs() <= bound);
    }
    assertTrue("the long job finishes while the stream still runs",
        outcome(r, LONG).completionMs() <= lastArrivalMs());
  }

  @Test(timeout = 60_000)
  public void withoutAgingHlasStarvesTheLongJobAfterItsFirstRound() throws Exception {
    SimResult r = run(HlasPolicy.NAME, Map.of(HlasKeys.AGING_RATE, "0"));
    long second = longTasks(r).get(1).startMs();
    assertTrue("second round started at " + second + " ms, before the last heavy arrival at "
        + lastArrivalMs() + " ms", second >= lastArrivalMs());
  }

  @Test(timeout = 60_000)
  public void badMaxWaitIsRefusedNamingKeyValueAndRange() {
    refused(HarePolicy.NAME, Map.of(HareKeys.MAX_WAIT_MS, "-1"),
        HareKeys.MAX_WAIT_MS + ": must be an integer in [0, 31536000000], got '-1'");
    refused(HarePolicy.NAME, Map.of(HareKeys.MAX_WAIT_MS, "1h"), "got '1h'");
    refused(HarePolicy.NAME, Map.of(HareKeys.MAX_WAIT_MS, "31536000001"),
        "got '31536000001'");
    refused(HarePolicy.NAME, Map.of(HareKeys.MAX_WAIT_MS, "60000",
        HareKeys.DISPATCH, "plan"), "works with " + HareKeys.DISPATCH
        + "=priority only");
  }

  @Test(timeout = 60_000)
  public void thePapersVariantHasNoGuardAndPlanDispatchIgnoresTheDefault() throws Exception {
    // Algorithm 1 as published follows its plan; the default does not make its config invalid
    Policies.create(HarePolicy.PAPER_NAME, PolicyConfig.defaults());
    Policies.create(HarePolicy.NAME, new PolicyConfig(Map.of(HareKeys.DISPATCH, "plan"),
        0));
  }

  private static void refused(String policy, Map<String, String> conf, String expected) {
    try {
      Policies.create(policy, new PolicyConfig(conf, 0));
      fail(conf + " accepted");
    } catch (ConfigException e) {
      assertEquals(e.getMessage(), 1, e.problems().size());
      assertTrue(e.getMessage(), e.problems().get(0).contains(expected));
    }
  }
}
