package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.blind.YarnFifoPolicy;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceBlacklistRequest;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.After;
import org.junit.Test;

/**
 * Nodes the scheduler must not place on although YARN lists them RUNNING: one silent past the
 * liveness grace (a NodeManager killed with SIGKILL stays RUNNING in the RM for 10 minutes), and
 * one the job's AM blacklisted. Hare places on every node at any node's heartbeat, so it must
 * keep off them itself.
 */
public class SilentNodeTest {

  private static final long GRACE_MS = 10_000;

  private HareRm h;

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  private ControlledClock start() {
    return start(SchedulerKeys.DEFAULT_POLICY);
  }

  private ControlledClock start(String policy) {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.POLICY, policy);
    conf.setLong(SchedulerKeys.NODE_LIVENESS_GRACE_MS, GRACE_MS);
    h = HareRm.start(conf);
    return h.controlledClock();
  }

  @Test(timeout = 300_000)
  public void aSilentNodeGetsNoTaskWhileAnotherNodesGpuIsFreeAndIsUsedAgainOnceItHeartbeats()
      throws Exception {
    ControlledClock clock = start();
    MockNM h1 = node("h1", 2);
    MockAM am = h.launch(h.submit(), h1);
    HareRm.askGpuTasks(am, 1);
    List<Container> first = h.heartbeatAndPull(am, h1);
    assertEquals(1, first.size()); // on h1, the only node: one of its 2 GPUs busy
    MockNM h2 = node("h2", 1);
    h2.nodeHeartbeat(true);
    h.rm.drainEvents();

    clock.tickMsec(GRACE_MS + 1); // h1 silent from now on; h2 heartbeats
    HareRm.askGpuTasks(am, 2);
    List<Container> whileSilent = h.heartbeatAndPull(am, h2);
    whileSilent.addAll(h.heartbeatAndPull(am, h2));
    assertEquals("h2's GPU takes one task; h1's free GPU is not offered", List.of(h2.getNodeId()),
        nodes(whileSilent));
    assertEquals(1, h.scheduler().silentNodes());
    assertEquals(1, h.scheduler().hareMetrics().silentNodes.value());

    List<Container> back = h.heartbeatAndPull(am, h1);
    assertEquals("h1 heartbeats: its one free GPU takes the waiting task", List.of(h1.getNodeId()),
        nodes(back));
    assertEquals(0, h.scheduler().silentNodes());
    assertEquals(0, h.scheduler().hareMetrics().silentNodes.value());
    assertEquals("both of h1's GPUs are busy: nothing more there", 0,
        h.heartbeatAndPull(am, h1).size());

    h.finish(h1, first.get(0)); // the task h1 ran through its silence ends
    HareRm.askGpuTasks(am, 1);
    assertEquals("h1 has its 2 GPUs again, one of them free", List.of(h1.getNodeId()),
        nodes(h.heartbeatAndPull(am, h1)));
  }

  @Test(timeout = 300_000)
  public void aNodeWithinTheGraceKeepsItsGpus() throws Exception {
    ControlledClock clock = start();
    MockNM h1 = node("h1", 1);
    MockNM h2 = node("h2", 0);
    MockAM am = h.launch(h.submit(), h2);
    clock.tickMsec(GRACE_MS); // not more than the grace
    HareRm.askGpuTasks(am, 1);
    assertEquals(List.of(h1.getNodeId()), nodes(h.heartbeatAndPull(am, h2)));
    assertEquals(0, h.scheduler().silentNodes());
  }

  @Test(timeout = 300_000)
  public void aNodeTheAmBlacklistedGetsNoGpuTaskAndIsUsedOnceTheAmTakesItBack()
      throws Exception {
    // yarn-fifo draws the offered GPUs in a seeded random order; with the default seed its first
    // draw of these two is h2's, so the policy chooses the blacklisted GPU
    start(YarnFifoPolicy.NAME);
    MockNM h1 = node("h1", 1);
    MockNM h2 = node("h2", 1);
    MockAM am = h.launch(h.submit(), h1);
    allocate(am, 1, List.of("h2"), List.of());
    assertEquals("the task goes to h1, whichever GPU the policy chose", List.of(h1.getNodeId()),
        nodes(h.heartbeatAndPull(am, h1, h2)));

    HareRm.askGpuTasks(am, 1); // h1's GPU is busy, h2's free but blacklisted
    assertEquals(0, h.heartbeatAndPull(am, h1, h2).size());
    assertEquals(0, h.heartbeatAndPull(am, h1, h2).size());

    allocate(am, 0, List.of(), List.of("h2"));
    assertEquals(List.of(h2.getNodeId()), nodes(h.heartbeatAndPull(am, h1, h2)));
  }

  /**
   * A node on {@code host} with {@code gpus} GPUs of one type (t4) for every node of a test:
   * the policy's choice is then only where, whatever types earlier tests stored for the host.
   */
  private MockNM node(String host, int gpus) throws Exception {
    MockNM nm = h.node(host + ":1234", gpus);
    h.setType(host, "t4");
    return nm;
  }

  /** An allocate call with {@code gpuTasks} one-GPU asks (absolute) and blacklist changes. */
  private static void allocate(MockAM am, int gpuTasks, List<String> add, List<String> remove)
      throws Exception {
    List<ResourceRequest> asks = gpuTasks == 0 ? List.of()
        : List.of(ResourceRequest.newInstance(Priority.newInstance(1), ResourceRequest.ANY,
            HareRm.resource(1024, 1, 1), gpuTasks));
    am.allocate(AllocateRequest.newInstance(0, 0f, asks, List.of(),
        ResourceBlacklistRequest.newInstance(add, remove)));
  }

  private static List<NodeId> nodes(List<Container> cs) {
    List<NodeId> out = new ArrayList<>();
    cs.forEach(c -> out.add(c.getNodeId()));
    return out;
  }
}
