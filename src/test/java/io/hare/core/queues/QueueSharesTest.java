package io.hare.core.queues;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

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
}
