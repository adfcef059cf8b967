package io.hare.core.queues;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.PolicyConfig;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The queues' shares as both the RM and the simulator read them, without Hadoop. */
public class QueueSharesTest {

  @Test(timeout = 60_000)
  public void withoutKeysDefaultHasEveryGpu() {
    PolicyConfig t = PolicyConfig.defaults();
    QueueShares q = QueueShares.read(t);
    assertEquals(List.of(), t.problems());
    assertEquals(QueueShares.single(), q);
    assertFalse(q.several());
    assertEquals(160, q.queues().get("default").guaranteedGpus(160));
  }

  @Test(timeout = 60_000)
  public void defaultIsGuaranteedWhatTheOthersLeaveAndUnknownQueuesCountAsDefault() {
    PolicyConfig t = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a, b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.25",
        "yarn.scheduler.hare.queue.b.maximum-gpu-share", "0.5",
        "yarn.scheduler.hare.queue.b.user-limit", "2"), 0); // an RM-only setting is no problem
    QueueShares q = QueueShares.read(t);
    assertEquals(List.of(), t.problems());
    assertEquals(List.of("default", "a", "b"), List.copyOf(q.queues().keySet()));
    assertEquals(0.75, q.queues().get("default").guaranteedShare(), 1e-12);
    assertEquals(new QueueShare("b", 0, 0.5), q.queues().get("b"));
    assertEquals("0.5 of 5 GPUs, rounded down", 2, q.queues().get("b").maximumGpus(5));
    assertEquals("b", q.queueOf("b"));
    assertEquals("default", q.queueOf("gone"));
  }

  @Test(timeout = 60_000)
  public void everyProblemIsNamed() {
    PolicyConfig t = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b,a,x.y",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.75",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.5",
        "yarn.scheduler.hare.queue.b.maximum-gpu-share", "0.25",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share", "0.1",
        "yarn.scheduler.hare.queue.a.capacity", "50"), 0);
    QueueShares.read(t);
    String all = String.join("\n", t.problems());
    for (String expected : List.of("queue 'a' is listed twice",
        "queue name 'x.y' must be letters, digits, '-' and '_'",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share: queue 'c' is not in",
        "yarn.scheduler.hare.queue.a.capacity: unknown queue setting 'capacity'",
        "yarn.scheduler.hare.queue.b.maximum-gpu-share: must be at least the queue's"
            + " guaranteed-gpu-share (0.5), got 0.25",
        "the guarantees must sum to at most 1 (the whole fleet), got 1.25")) {
      assertTrue("missing: " + expected + "\nin:\n" + all, all.contains(expected));
    }
    assertEquals(all, 6, t.problems().size());
  }

  @Test(timeout = 60_000)
  public void perTypeSharesAreReadRoundedPerTypeAndLeaveDefaultNoGuarantee() {
    PolicyConfig t = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share.v100", "1",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share.T4", "0.5",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.t4", "0.5",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.a100", "0.3"), 0);
    QueueShares q = QueueShares.read(t);
    assertEquals(List.of(), t.problems());
    QueueShare a = q.queues().get("a");
    assertTrue(a.perType());
    assertTrue(q.perType());
    assertEquals(Map.of(GpuType.of("t4"), 0.5, GpuType.of("v100"), 1.0), a.typeShares());
    assertEquals(0, a.guaranteedShare(), 0);
    assertEquals("0.5 of 5 T4s, rounded down", 2, a.guaranteedGpus(GpuType.of("t4"), 5));
    assertEquals("a type it is not guaranteed", 0, a.guaranteedGpus(GpuType.of("k80"), 5));
    assertEquals("4 V100s and 2 of 5 T4s", 6,
        a.guaranteedGpus(Map.of(GpuType.of("v100"), 4, GpuType.of("t4"), 5)));
    assertEquals("no A100 in the cluster: none of b's 0.3 of them", 2,
        q.queues().get("b").guaranteedGpus(Map.of(GpuType.of("v100"), 4, GpuType.of("t4"), 5)));
    assertEquals("default keeps no guarantee once a queue has per-type ones",
        new QueueShare("default", 0, 1), q.queues().get("default"));
  }

  @Test(timeout = 60_000)
  public void everyPerTypeProblemIsNamed() {
    PolicyConfig t = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b,c",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share.v100", "0.75",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.v100", "0.5",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.5",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.t4", "1.5",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.k80", "x",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.-bad", "0.1",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.M60", "0.1",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.m60", "0.2"), 0);
    QueueShares.read(t);
    String all = String.join("\n", t.problems());
    for (String expected : List.of(
        "yarn.scheduler.hare.queue.*.guaranteed-gpu-share.v100: the guarantees of GPU type v100"
            + " must sum to at most 1 (all its GPUs), got 1.25 (a 0.75, b 0.5)",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share: a queue is guaranteed either a share"
            + " of the whole fleet (guaranteed-gpu-share) or shares of GPU types"
            + " (guaranteed-gpu-share.<type>), not both; got 0.5 and"
            + " guaranteed-gpu-share.v100=0.5",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.t4: must be a number in [0.0, 1.0],"
            + " got '1.5'",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.k80: must be a number in [0.0, 1.0],"
            + " got 'x'",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.-bad: '-bad' is not a GPU type name",
        "yarn.scheduler.hare.queue.c.guaranteed-gpu-share.m60: GPU type m60 is set twice, also"
            + " by yarn.scheduler.hare.queue.c.guaranteed-gpu-share.M60")) {
      assertTrue("missing: " + expected + "\nin:\n" + all, all.contains(expected));
    }
    assertEquals(all, 6, t.problems().size());
  }
}
