package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.profile.ProfileTable;
import io.hare.core.queues.QueueShares;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * {@code hare}'s holds across a sync meet the queues' guarantees: the offer that serves a queue
 * below its guarantee leaves the other queues' jobs out altogether, so no GPU is held there for
 * a job of a queue that may not take it, and a GPU freed for the guarantee is not kept idle.
 */
public class QueueHoldsTest {

  /** s: 100 ms compute + 50 ms sync; l: 1,000 ms compute + 50 ms sync; one GPU type. */
  private static final ProfileTable P = ProfileTable.builder()
      .put("s", "g", 100, 50).put("l", "g", 1000, 50).build();

  /** a and b, each guaranteed 1 of the 2 GPUs. */
  private static SimOptions halfEach() {
    PolicyConfig c = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.5",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.5"), 0);
    QueueShares q = QueueShares.read(c);
    assertEquals(List.of(), c.problems());
    return SimOptions.defaults().withQueues(q);
  }

  private static SimResult run(List<JobSpec> jobs, Map<String, String> hare) throws Exception {
    return new Simulator(ClusterSpec.parse("g=2"), jobs, P, halfEach())
        .run(Policies.create("hare", new PolicyConfig(hare, 1)));
  }

  /**
   * B (queue b, ranked first) borrows both GPUs at 0; A (queue a) arrives at 20, below its
   * guarantee of 1. At 100 B's round ends and syncs to 150.
   */
  private static final List<JobSpec> B_THEN_A = List.of(new JobSpec("B", 0, 10, "s", 2, 5, "b"),
      new JobSpec("A", 20, 1, "l", 1, 1, "a"));

  private static long firstStart(SimResult r, String job) {
    return r.tasks().stream().filter(t -> t.jobId().equals(job))
        .mapToLong(TaskRecord::startMs).min().orElseThrow();
  }

  @Test(timeout = 60_000)
  public void aQueueBelowItsGuaranteeGetsAGpuHeldForAnotherQueuesJob() throws Exception {
    // priority dispatch alone would hold both GPUs for B's next round at 100 (A's task, 1,000
    // ms, would not end before it), but a's guarantee comes first, and B's queue is not in that
    // offer
    SimResult r = run(B_THEN_A, Map.of(HareKeys.EXACT_MAX_TASKS, "0"));
    assertEquals("A starts on the first GPU that frees", 100, firstStart(r, "A"));
    assertEquals("and B's next round has the other as its sync ends", 150, roundStart(r, "B", 1));
  }

  @Test(timeout = 60_000)
  public void smallClustersDoNotFollowExactPlansThroughTheQueues() throws Exception {
    // 2 GPUs and 11 tasks: hare alone follows an exact plan, whose GPUs wait for their planned
    // tasks. Through the gate, b's guarantee took one of B's two planned tasks at 0 and the
    // plan counted both as started; its GPUs then waited for tasks that were never offered,
    // until the starvation guard dropped the plan 30 minutes later
    SimResult r = run(B_THEN_A, Map.of());
    assertEquals(100, firstStart(r, "A"));
    assertEquals(150, roundStart(r, "B", 1));
  }

  private static long roundStart(SimResult r, String job, int round) {
    return r.tasks().stream().filter(t -> t.jobId().equals(job) && t.round() == round)
        .mapToLong(TaskRecord::startMs).min().orElseThrow();
  }

  @Test(timeout = 60_000)
  public void planDispatchIsRefusedWithSeveralQueues() throws Exception {
    try {
      run(B_THEN_A, Map.of(HareKeys.DISPATCH, "plan"));
      fail("dispatch=plan ran under two queues' guarantees");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("yarn.scheduler.hare.queues: "
          + "yarn.scheduler.hare.hare.dispatch=plan cannot serve several queues"));
    }
  }
}
