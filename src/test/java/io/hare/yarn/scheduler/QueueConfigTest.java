package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * The queue settings as the RM reads them ({@link HareSettings#read}): defaults, the default
 * queue's remainder guarantee, every problem of a bad queue file at once, and the mappings.
 */
public class QueueConfigTest {

  private static final String Q = SchedulerKeys.QUEUE_PREFIX;

  private static Configuration conf(String... kv) {
    Configuration c = new Configuration(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  private static QueueConfig read(String... kv) throws ConfigException {
    return HareSettings.read(conf(kv)).admin().queues();
  }

  @Test(timeout = 60_000)
  public void withoutQueuesDefaultHasEverything() throws Exception {
    QueueConfig c = read();
    assertEquals(List.of("default"), List.copyOf(c.queues().keySet()));
    QueueSettings d = c.queues().get("default");
    assertEquals(1.0, d.guaranteedShare(), 0);
    assertEquals(1.0, d.maximumShare(), 0);
    assertEquals(10000, d.maximumApplications());
    assertEquals(-1, d.userLimit());
    assertEquals(0.5, d.amShare(), 0);
    assertTrue(!c.several());
  }

  @Test(timeout = 60_000)
  public void defaultIsGuaranteedWhatTheOthersLeave() throws Exception {
    QueueConfig c = read(SchedulerKeys.QUEUES, "a, b", Q + "a.guaranteed-gpu-share", "0.5",
        Q + "b.guaranteed-gpu-share", "0.25", Q + "b.maximum-gpu-share", "0.5",
        Q + "b.user-limit", "2", Q + "b.maximum-applications", "7",
        Q + "b.maximum-am-resource-percent", "0.2");
    assertEquals(List.of("default", "a", "b"), List.copyOf(c.queues().keySet()));
    assertEquals(0.25, c.queues().get("default").guaranteedShare(), 1e-9);
    QueueSettings b = c.queues().get("b");
    assertEquals(new QueueSettings("b", 0.25, 0.5, b.acls(), 7, 2, 0.2), b);
    assertEquals("0.25 of 4 GPUs", 1, b.guaranteedGpus(4));
    assertEquals("0.5 of 5 GPUs, rounded down", 2, b.maximumGpus(5));
    assertTrue(c.several());
  }

  @Test(timeout = 60_000)
  public void everyProblemOfABadQueueFileIsListedAtOnce() {
    try {
      read(SchedulerKeys.QUEUES, "a,b,a,c.d", Q + "a.guaranteed-gpu-share", "0.75",
          Q + "b.guaranteed-gpu-share", "0.5", Q + "b.maximum-gpu-share", "0.25",
          Q + "zz.user-limit", "3", Q + "a.capacity", "40",
          Q + "a.acl-submit-applications", "x y z",
          SchedulerKeys.QUEUE_MAPPINGS, "u:alice:a,g:ml:nope,u:bob,g:%user:a");
      fail("accepted");
    } catch (ConfigException e) {
      String all = String.join("\n", e.problems());
      for (String expected : List.of(
          "yarn.scheduler.hare.queues: queue 'a' is listed twice",
          "yarn.scheduler.hare.queues: queue name 'c.d' must be letters, digits",
          "yarn.scheduler.hare.queue.b.maximum-gpu-share: must be at least the queue's"
              + " guaranteed-gpu-share (0.5), got 0.25",
          "yarn.scheduler.hare.queue.zz.user-limit: queue 'zz' is not in"
              + " yarn.scheduler.hare.queues [default, a, b]",
          "yarn.scheduler.hare.queue.a.capacity: unknown queue setting 'capacity'; a queue's"
              + " settings are guaranteed-gpu-share, maximum-gpu-share",
          "yarn.scheduler.hare.queue.a.acl-submit-applications: must be an ACL",
          "yarn.scheduler.hare.queue.*.guaranteed-gpu-share: the guarantees must sum to at most"
              + " 1 (the whole fleet), got 1.25 (default 0.0, a 0.75, b 0.5)",
          "yarn.scheduler.hare.queue-mappings: rule 'g:ml:nope' names queue 'nope', which is not"
              + " in yarn.scheduler.hare.queues [default, a, b]",
          "yarn.scheduler.hare.queue-mappings: rule 'u:bob' must be u:USER:QUEUE or"
              + " g:GROUP:QUEUE",
          "yarn.scheduler.hare.queue-mappings: rule 'g:%user:a': %user names users")) {
        assertTrue("missing: " + expected + "\nin:\n" + all, all.contains(expected));
      }
      assertEquals(all, 10, e.problems().size());
    }
  }

  @Test(timeout = 60_000)
  public void perTypeGuaranteesReachTheGate() throws Exception {
    QueueConfig c = read(SchedulerKeys.QUEUES, "a,b", Q + "a.guaranteed-gpu-share.v100", "1",
        Q + "a.guaranteed-gpu-share.t4", "0.5", Q + "b.guaranteed-gpu-share.t4", "0.5",
        Q + "b.maximum-gpu-share", "0.5");
    QueueSettings a = c.queues().get("a");
    assertEquals(Map.of(GpuType.of("v100"), 1.0, GpuType.of("t4"), 0.5), a.typeShares());
    assertEquals(0, a.guaranteedShare(), 0);
    assertEquals("4 V100s and 1 of 3 T4s", 5,
        a.guaranteedGpus(Map.of(GpuType.of("v100"), 4, GpuType.of("t4"), 3)));
    assertEquals(a.typeShares(), c.shares().queues().get("a").typeShares());
    assertEquals("default keeps no guarantee beside per-type ones", 0,
        c.queues().get("default").guaranteedShare(), 0);
    assertEquals("capacity: 5 of 7 GPUs", 5.0 / 7, HareQueue.capacity(a,
        Map.of(GpuType.of("v100"), 4, GpuType.of("t4"), 3)), 1e-9);
    assertEquals("no GPUs yet", 0, HareQueue.capacity(a, Map.of()), 0);
  }

  @Test(timeout = 60_000)
  public void everyProblemOfBadPerTypeGuaranteesIsListedAtOnce() {
    try {
      read(SchedulerKeys.QUEUES, "a,b", Q + "a.guaranteed-gpu-share.v100", "0.6",
          Q + "b.guaranteed-gpu-share.v100", "0.6", Q + "a.guaranteed-gpu-share", "0.2",
          Q + "b.guaranteed-gpu-share.t4", "-1", Q + "b.guaranteed-gpu-share.a 100", "0.1");
      fail("accepted");
    } catch (ConfigException e) {
      String all = String.join("\n", e.problems());
      for (String expected : List.of(
          "yarn.scheduler.hare.queue.*.guaranteed-gpu-share.v100: the guarantees of GPU type"
              + " v100 must sum to at most 1 (all its GPUs), got 1.2 (a 0.6, b 0.6)",
          "yarn.scheduler.hare.queue.a.guaranteed-gpu-share: a queue is guaranteed either a"
              + " share of the whole fleet (guaranteed-gpu-share) or shares of GPU types"
              + " (guaranteed-gpu-share.<type>), not both; got 0.2 and"
              + " guaranteed-gpu-share.v100=0.6; remove one",
          "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.t4: must be a number in [0.0, 1.0],"
              + " got '-1'",
          "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.a 100: 'a 100' is not a GPU type"
              + " name")) {
        assertTrue("missing: " + expected + "\nin:\n" + all, all.contains(expected));
      }
      assertEquals(all, 4, e.problems().size());
    }
  }

  @Test(timeout = 60_000)
  public void mappingsTakeTheFirstRuleThatMatchesAnExistingQueue() throws Exception {
    QueueConfig c = read(SchedulerKeys.QUEUES, "a,b,carol,ml",
        SchedulerKeys.QUEUE_MAPPINGS, "u:alice:a, g:vision:b, u:%user:%user,"
            + " u:%user:%primary_group");
    Map<String, List<String>> groups = Map.of("alice", List.of("vision"),
        "bob", List.of("vision"), "carol", List.of(), "dave", List.of("ml"),
        "erin", List.of("other"));
    Set<String> queues = c.queues().keySet();
    QueueMappings m = c.mappings();
    assertEquals(Optional.of("a"), m.map("alice", groups::get, queues));
    assertEquals(Optional.of("b"), m.map("bob", groups::get, queues));
    assertEquals(Optional.of("carol"), m.map("carol", groups::get, queues));
    assertEquals("primary group", Optional.of("ml"), m.map("dave", groups::get, queues));
    assertEquals("no queue of that name: no mapping", Optional.empty(),
        m.map("erin", groups::get, queues));
  }
}
