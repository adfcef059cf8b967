package io.hare.core.policy.hlas;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.ConfigException;
import io.hare.core.JobSpec;
import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.testing.FakeJob;
import io.hare.testing.Workloads;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.Test;

/**
 * HLAS on hand-checkable cases. Task times are those of {@link Workloads#profiles()}: cnn takes
 * 100 ms on v100 (sync 20), 700 ms on k80 (sync 40); gnn 200 ms on v100 (sync 10), 400 ms on k80
 * (sync 20).
 */
public class HlasPolicyTest {

  private static SimResult run(Map<String, String> conf, String cluster, List<JobSpec> jobs)
      throws Exception {
    SchedulingPolicy p = Policies.create(HlasPolicy.NAME, new PolicyConfig(conf, 1));
    return new Simulator(ClusterSpec.parse(cluster), jobs, Workloads.profiles(),
        SimOptions.defaults()).run(p);
  }

  private static List<TaskRecord> tasksOf(SimResult r, String job) {
    return r.tasks().stream().filter(t -> t.jobId().equals(job))
        .sorted(Comparator.comparingLong(TaskRecord::startMs)).collect(Collectors.toList());
  }

  private static TaskRecord task(SimResult r, String job, int round, int index) {
    return r.tasks().stream()
        .filter(t -> t.jobId().equals(job) && t.round() == round && t.index() == index)
        .findFirst().orElseThrow();
  }

  @Test(timeout = 60_000)
  public void freeGpuGoesToTheLeastServedJob() throws Exception {
    // One v100. "a" (k=2) runs rounds 0 and 1 alone: tasks 0-100, 100-200, sync to 220; then
    // 220-320, 320-420, sync to 440. Round 2's first task runs 440-540. "b" arrives at 500. At
    // 540 both have a ready task: a has 2 rounds x 2 tasks x 100 ms = 400 ms of service, b none,
    // so b gets the GPU (540-640) and a's second task waits until 640.
    List<JobSpec> jobs = List.of(new JobSpec("a", 0, 1, "cnn", 2, 10),
        new JobSpec("b", 500, 1, "cnn", 1, 1));
    SimResult r = run(Map.of(), "v100=1", jobs);
    assertEquals(440, task(r, "a", 2, 0).startMs());
    assertEquals(540, task(r, "b", 0, 0).startMs());
    assertEquals(640, task(r, "a", 2, 1).startMs());
  }

  @Test(timeout = 60_000)
  public void highSpeedupJobGetsTheFastType() throws Exception {
    // Both arrive at 0 with no service; "a-gnn" is first in priority (earlier rank) but gains
    // only 2x on v100, "b-cnn" gains 7x: cnn takes the v100, gnn the k80.
    List<JobSpec> jobs = List.of(new JobSpec("a-gnn", 0, 1, "gnn", 1, 1),
        new JobSpec("b-cnn", 0, 1, "cnn", 1, 1));
    SimResult r = run(Map.of(), "v100=1,k80=1", jobs);
    assertEquals("v100-0", task(r, "b-cnn", 0, 0).gpuId());
    assertEquals(0, task(r, "b-cnn", 0, 0).startMs());
    assertEquals("k80-0", task(r, "a-gnn", 0, 0).gpuId());
    assertEquals(0, task(r, "a-gnn", 0, 0).startMs());
  }

  @Test(timeout = 60_000)
  public void roundDoesNotWaitOnAStragglerOnASlowType() throws Exception {
    // k=2 cnn on one v100 and one k80. Its second task on the k80 would end at 700 (round over
    // at 740); waiting for the v100 (free at 100) ends it at 200, so it declines the k80: both
    // tasks run on the v100, 0-100 and 100-200, and the round (the job) ends at 220.
    List<JobSpec> jobs = List.of(new JobSpec("j", 0, 1, "cnn", 2, 1));
    SimResult patient = run(Map.of(), "v100=1,k80=1", jobs);
    assertTrue(tasksOf(patient, "j").stream().allMatch(t -> t.gpuId().equals("v100-0")));
    assertEquals(220, patient.jobs().get(0).completionMs());

    SimResult eager = run(Map.of(HlasKeys.SLOW_TYPE_WAIT_ENABLED, "false"),
        "v100=1,k80=1", jobs);
    assertEquals(740, eager.jobs().get(0).completionMs());
  }

  @Test(timeout = 60_000)
  public void scheduleDoesNotDependOnRoundsUntilAJobFinishes() throws Exception {
    assertFalse(Policies.create(HlasPolicy.NAME, PolicyConfig.defaults()).clairvoyant());
    List<JobSpec> a = Workloads.randomJobs(11, 10);
    List<JobSpec> b = new ArrayList<>();
    for (JobSpec j : a) {
      b.add(new JobSpec(j.id(), j.arrivalMs(), j.weight(), j.model(), j.tasksPerRound(),
          j.rounds() + 1 + j.id().length() % 3));
    }
    SimResult ra = run(Map.of(), "v100=3,t4=2,k80=3", a);
    SimResult rb = run(Map.of(), "v100=3,t4=2,k80=3", b);
    long firstDone = Math.min(
        ra.jobs().stream().mapToLong(o -> o.completionMs()).min().orElseThrow(),
        rb.jobs().stream().mapToLong(o -> o.completionMs()).min().orElseThrow());
    List<TaskRecord> before = ra.tasks().stream().filter(t -> t.startMs() < firstDone)
        .sorted(Comparator.comparing(TaskRecord::toString)).collect(Collectors.toList());
    assertTrue("the comparison covers some tasks", before.size() >= 5);
    assertEquals(before, rb.tasks().stream().filter(t -> t.startMs() < firstDone)
        .sorted(Comparator.comparing(TaskRecord::toString)).collect(Collectors.toList()));
  }

  /** One old 30-round job at 0, then a short job every 100 ms from 50 to 19,950 on one v100. */
  private static List<JobSpec> oldJobUnderAStream() {
    List<JobSpec> jobs = new ArrayList<>();
    jobs.add(new JobSpec("old", 0, 1, "cnn", 1, 30));
    for (int i = 0; i < 200; i++) {
      jobs.add(new JobSpec(String.format("s%03d", i), 50 + 100L * i, 1, "cnn", 1, 1));
    }
    return jobs;
  }

  @Test(timeout = 60_000)
  public void pureLeastAttainedServiceStarvesTheOldJob() throws Exception {
    // Without aging every new job (no service) beats "old" (service > 0) and the stream keeps
    // the GPU busy: s_i runs 100(i+1) to 100(i+2), so old's second round starts at 20,100.
    SimResult r = run(Map.of(HlasKeys.AGING_RATE, "0"), "v100=1", oldJobUnderAStream());
    assertEquals(20_100, task(r, "old", 1, 0).startMs());
  }

  @Test(timeout = 60_000)
  public void agingLetsTheOldJobThroughTheStream() throws Exception {
    // Rate 0.1: after r rounds old's key is 100r, s_i's is 0.1 x (50 + 100i) = 5 + 10i, so only
    // s_0 .. s_(10r-1) may go before old's round r. Hand-run: round r starts at 1100r while the
    // stream lasts (the 10 short jobs before it, each 100 ms, plus old's own r earlier rounds).
    SimResult r = run(Map.of(HlasKeys.AGING_RATE, "0.1"), "v100=1",
        oldJobUnderAStream());
    for (int round = 1; round <= 18; round++) {
      assertEquals("round " + round, 1100L * round, task(r, "old", round, 0).startMs());
    }
    assertEquals(0, r.unfinishedJobs());
  }

  @Test(timeout = 60_000)
  public void rejectsBadSettingsAllAtOnce() {
    try {
      Policies.create(HlasPolicy.NAME, new PolicyConfig(Map.of(
          HlasKeys.AGING_RATE, "-1",
          HlasKeys.SLOW_TYPE_WAIT_ENABLED, "yes",
          HlasKeys.SLOW_TYPE_WAIT_MARGIN, "x"), 0));
      fail("expected a ConfigException");
    } catch (ConfigException e) {
      assertEquals(e.getMessage(), 3, e.problems().size());
      assertTrue(e.getMessage().contains(HlasKeys.AGING_RATE));
    }
  }

  @Test(timeout = 60_000)
  public void picksUpReadinessTheHostReportsWithoutACallback() {
    // A host whose asks arrive after the barrier callback: the job is announced with no ready
    // task, and its task becomes ready silently. The periodic resync still schedules it.
    GpuType v100 = GpuType.of("v100");
    FakeJob job = new FakeJob("late", "cnn", 1, OptionalInt.empty(), Workloads.profiles());
    GpuView gpu = new GpuView() {
      @Override
      public String id() {
        return "g0";
      }

      @Override
      public GpuType type() {
        return v100;
      }

      @Override
      public String node() {
        return "n0";
      }

      @Override
      public boolean busy() {
        return false;
      }

      @Override
      public String lastJobId() {
        return null;
      }
    };
    ClusterView cluster = new ClusterView() {
      @Override
      public List<? extends JobView> jobs() {
        return List.of(job);
      }

      @Override
      public JobView job(String id) {
        return id.equals("late") ? job : null;
      }

      @Override
      public List<? extends GpuView> gpus() {
        return List.of(gpu);
      }

      @Override
      public List<GpuType> gpuTypes() {
        return List.of(v100);
      }

      @Override
      public int gpuCount(GpuType type) {
        return type.equals(v100) ? 1 : 0;
      }

      @Override
      public int freeGpuCount(GpuType type) {
        return gpuCount(type);
      }

      @Override
      public TaskTimeModel taskTimes() {
        return Workloads.profiles();
      }
    };
    SchedulingPolicy p = new HlasPolicy(PolicyConfig.defaults());
    p.onJobArrived(job, 0);
    job.ready = 1;
    List<Assignment> got = List.of();
    for (int call = 0; call < HlasPolicy.RESYNC_EVERY && got.isEmpty(); call++) {
      got = p.assign(cluster, List.of(gpu), call);
    }
    assertEquals(List.of(new Assignment("g0", "late")), got);
  }
}
