package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.profile.ProfileTable;
import io.hare.core.queues.QueueShares;
import io.hare.sim.workload.PaperWorkload;
import io.hare.sim.workload.QueueAssignment;
import io.hare.sim.workload.Workload;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * The simulator runs the RM's queue guarantees ({@link io.hare.core.queues.QueueGuarantees}):
 * a borrowed guarantee comes back at task boundaries, the wait for it is counted, and one queue
 * gives exactly the results of no queues.
 */
public class SimulatorQueuesTest {

  /** s: 100 ms compute + 50 ms sync on a. */
  private static final ProfileTable P = ProfileTable.builder().put("s", "a", 100, 50).build();

  private static QueueShares queues(Map<String, String> keys) {
    PolicyConfig t = new PolicyConfig(keys, 0);
    QueueShares q = QueueShares.read(t);
    assertEquals(List.of(), t.problems());
    return q;
  }

  /** a guaranteed 3 of 4 GPUs, b 1. */
  private static final Map<String, String> THREE_ONE = Map.of(
      "yarn.scheduler.hare.queues", "a,b",
      "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.75",
      "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.25");

  @Test(timeout = 60_000)
  public void aBorrowedGuaranteeComesBackAtTheNextTaskBoundary() {
    // B (queue b) arrives alone at 0 with 8 tasks and borrows all 4 GPUs: 0-100. A (queue a)
    // arrives at 50 with 3 tasks; nothing is killed, so a waits, 3 GPUs short, until the tasks
    // end at 100. Then a gets its 3 GPUs back and b keeps its guaranteed 1, although the
    // first-come policy alone would give all 4 to B, the older job.
    List<JobSpec> jobs = List.of(new JobSpec("B", 0, 1, "s", 8, 1, "b"),
        new JobSpec("A", 50, 1, "s", 3, 1, "a"));
    SimOptions o = SimOptions.defaults().withQueues(queues(THREE_ONE));
    SimResult r = new Simulator(ClusterSpec.parse("a=4"), jobs, P, o)
        .run(TestingPolicy.firstComeFirstServed());
    List<TaskRecord> at100 = r.tasks().stream().filter(t -> t.startMs() == 100)
        .sorted(Comparator.comparing(TaskRecord::gpuId)).toList();
    assertEquals(4, at100.size());
    assertEquals("A's 3 tasks start at the first boundary", 3,
        at100.stream().filter(t -> t.jobId().equals("A")).count());
    assertEquals(250, outcome(r, "A").completionMs()); // 100-200 compute, sync to 250
    assertEquals("a", outcome(r, "A").queue());
    QueueOutcome a = r.queues().get(1);
    assertEquals("a", a.name());
    assertEquals(3, a.guaranteedGpus());
    assertEquals(1, a.jobs());
    assertEquals(0.2, a.totalWeightedJctS(), 1e-12);
    assertEquals("waited from 50 to 100", 0.05, a.guaranteeWaitS(), 1e-12);
    assertEquals("3 GPUs short for 50 ms", 0.15, a.guaranteeShortGpuS(), 1e-12);
    assertEquals("all 3 lent to b, which held 3 above its guarantee", 0.15,
        a.guaranteeLentGpuS(), 1e-12);
    QueueOutcome b = r.queues().get(2);
    assertEquals("b held 4 GPUs, then 1, never below its guarantee while waiting", 0,
        b.guaranteeWaitS(), 0);
    assertEquals("default, guaranteed nothing, had no job", 0, r.queues().get(0).jobs());

    // without queues the same policy keeps A waiting a whole B task longer
    SimResult one = new Simulator(ClusterSpec.parse("a=4"), jobs, P, SimOptions.defaults())
        .run(TestingPolicy.firstComeFirstServed());
    assertEquals(350, outcome(one, "A").completionMs());
  }

  @Test(timeout = 60_000)
  public void aQueueGuaranteedAGpuTypeGetsThatTypeBackAtTheNextTaskBoundary() {
    // a is guaranteed both V100s, b both T4s; s runs alike on either. B (queue b) arrives alone
    // at 0 with 8 tasks and borrows all 4 GPUs; A (queue a) arrives at 50 with 2 tasks and
    // waits, 2 V100s short, until the tasks end at 100. Then A gets the V100s, B the T4s.
    ProfileTable p = ProfileTable.builder().put("s", "v100", 100, 50).put("s", "t4", 100, 50)
        .build();
    List<JobSpec> jobs = List.of(new JobSpec("B", 0, 1, "s", 8, 1, "b"),
        new JobSpec("A", 50, 1, "s", 2, 1, "a"));
    SimOptions o = SimOptions.defaults().withQueues(queues(Map.of(
        "yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share.v100", "1",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.t4", "1")));
    SimResult r = new Simulator(ClusterSpec.parse("t4=2,v100=2"), jobs, p, o)
        .run(TestingPolicy.firstComeFirstServed());
    List<TaskRecord> a = r.tasks().stream().filter(t -> t.jobId().equals("A")).toList();
    assertEquals(2, a.size());
    for (TaskRecord t : a) {
      assertEquals(100, t.startMs());
      assertEquals("v100", t.gpuType());
    }
    assertEquals("B's next two run on its T4s at 100", 2, r.tasks().stream()
        .filter(t -> t.jobId().equals("B") && t.startMs() == 100 && t.gpuType().equals("t4"))
        .count());
    assertEquals(250, outcome(r, "A").completionMs());
    QueueOutcome qa = r.queues().get(1);
    assertEquals(Map.of("v100", 1.0), qa.guaranteedTypeShares());
    assertEquals(0, qa.guaranteedShare(), 0);
    assertEquals(2, qa.guaranteedGpus());
    assertEquals("waited from 50 to 100", 0.05, qa.guaranteeWaitS(), 1e-12);
    assertEquals("2 V100s short for 50 ms", 0.1, qa.guaranteeShortGpuS(), 1e-12);
    assertEquals("both held by b above its guarantee of V100s (none)", 0.1,
        qa.guaranteeLentGpuS(), 1e-12);
    QueueOutcome qb = r.queues().get(2);
    assertEquals(2, qb.guaranteedGpus());
    assertEquals("b always held its T4s", 0, qb.guaranteeWaitS(), 0);
    assertEquals("default keeps no guarantee beside per-type ones", 0,
        r.queues().get(0).guaranteedGpus());
  }

  @Test(timeout = 60_000)
  public void aQueueAtItsMaximumLeavesGpusIdle() {
    // b may hold at most 2 of 4 GPUs: B's 4 tasks run two at a time, although 2 GPUs idle
    Map<String, String> keys = Map.of("yarn.scheduler.hare.queues", "b",
        "yarn.scheduler.hare.queue.b.maximum-gpu-share", "0.5");
    SimOptions o = SimOptions.defaults().withQueues(queues(keys));
    SimResult r = new Simulator(ClusterSpec.parse("a=4"),
        List.of(new JobSpec("B", 0, 1, "s", 4, 1, "b")), P, o)
        .run(TestingPolicy.firstComeFirstServed());
    assertEquals(250, outcome(r, "B").completionMs()); // 0-100 and 100-200, sync to 250
  }

  @Test(timeout = 120_000)
  public void oneQueueGivesExactlyTheResultsOfNoQueues() throws Exception {
    ClusterSpec c = ClusterSpec.parse("v100=4,t4=4,k80=4");
    Workload w = PaperWorkload.generate(c, 40, 3, Map.of());
    SimResult plain = run(c, w, SimOptions.defaults());
    // default named alone, every job put in it by the assignment: the same as no queues
    QueueShares onlyDefault = queues(Map.of("yarn.scheduler.hare.queues", "default"));
    Workload assigned = QueueAssignment.apply(w, onlyDefault, QueueAssignment.ROUND_ROBIN);
    SimResult single = run(c, assigned, SimOptions.defaults().withQueues(onlyDefault));
    assertEquals(plain.jobs(), single.jobs());
    assertEquals(plain.tasks(), single.tasks());
    assertEquals(plain.totalWeightedJctS(), single.totalWeightedJctS(), 0);
    assertEquals(1, single.queues().size());
    assertEquals(40, single.queues().get(0).jobs());

    // two queues do change the schedule, and every job still finishes
    QueueShares two = queues(Map.of("yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.5",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.5"));
    SimResult split = run(c, QueueAssignment.apply(w, two, QueueAssignment.ROUND_ROBIN),
        SimOptions.defaults().withQueues(two));
    assertEquals(0, split.unfinishedJobs());
    assertEquals(20, split.queues().get(1).jobs());
    assertEquals(20, split.queues().get(2).jobs());
    assertEquals(split.totalWeightedJctS(), split.queues().stream()
        .mapToDouble(QueueOutcome::totalWeightedJctS).sum(), 1e-6);
  }

  @Test(timeout = 60_000)
  public void aJobInAQueueNotConfiguredIsRefused() {
    SimOptions o = SimOptions.defaults().withQueues(queues(THREE_ONE));
    try {
      new Simulator(ClusterSpec.parse("a=4"), List.of(new JobSpec("X", 0, 1, "s", 1, 1, "c")),
          P, o);
      fail("queue c is not configured");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(
          "job X names queue 'c', which is not configured; the queues are default, a, b"));
    }
  }

  private static SimResult run(ClusterSpec c, Workload w, SimOptions o) throws Exception {
    return new Simulator(c, w.jobs(), w.profiles(), o)
        .run(Policies.create("hare", PolicyConfig.defaults()));
  }

  private static JobOutcome outcome(SimResult r, String id) {
    return r.jobs().stream().filter(j -> j.jobId().equals(id)).findFirst().orElseThrow();
  }
}
