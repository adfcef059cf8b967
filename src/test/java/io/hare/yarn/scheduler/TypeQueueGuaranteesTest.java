package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.protocolrecords.GetQueueInfoRequest;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.Test;

/**
 * Per-GPU-type guarantees in dispatch ({@link QueueGate}) on host v (2 V100s) and host t
 * (2 T4s): queue a is guaranteed every V100 ({@code guaranteed-gpu-share.v100=1}), b every T4.
 * Both saturated, each holds its own type across task boundaries; a queue alone borrows both
 * types and gives the other's back as its tasks end. {@code yarn queue -status} and the REST
 * answer show the guarantee.
 */
public class TypeQueueGuaranteesTest extends MockRmTestCase {

  private MockNM v;
  private MockNM t;

  /** A queue's AM and the GPU containers it holds now. */
  private final class Tenant {
    final MockAM am;
    final List<Container> running = new ArrayList<>();

    Tenant(String user, String queue) throws Exception {
      RMApp app = MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
          .createWithMemory(1024, h.rm).withUser(user).withQueue(queue).build());
      am = h.launch(app, v);
    }

    void pull() throws Exception {
      running.addAll(am.allocate(List.of(), List.of()).getAllocatedContainers());
    }

    /** GPU containers it holds on {@code host}. */
    long on(String host) {
      return running.stream().filter(c -> c.getNodeId().getHost().equals(host)).count();
    }

    /** Its oldest running task on {@code host} ends; every tenant pulls what that gave it. */
    void finishOn(String host, Tenant... all) throws Exception {
      Container c = running.stream().filter(x -> x.getNodeId().getHost().equals(host))
          .findFirst().orElseThrow();
      running.remove(c);
      h.finish(host.equals("v") ? v : t, c);
      for (Tenant x : all) {
        x.pull();
      }
    }
  }

  private void start() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.QUEUES, "a,b");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "a.guaranteed-gpu-share.v100", "1");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "b.guaranteed-gpu-share.t4", "1");
    h = HareRm.start(conf);
    v = h.node("v:1234", 2);
    t = h.node("t:1234", 2);
    h.setType("v", "v100");
    h.setType("t", "t4");
  }

  private void kick(Tenant... all) throws Exception {
    v.nodeHeartbeat(true);
    t.nodeHeartbeat(true);
    h.rm.drainEvents();
    for (Tenant x : all) {
      x.pull();
    }
  }

  @Test(timeout = 300_000)
  public void bothSaturatedEachKeepsItsTypeAtTaskBoundaries() throws Exception {
    start();
    Tenant a = new Tenant("alice", "a");
    Tenant b = new Tenant("bob", "b");
    HareRm.askGpuTasks(b.am, 20);
    HareRm.askGpuTasks(a.am, 20);
    kick(a, b);
    assertEquals(2, a.on("v"));
    assertEquals(2, b.on("t"));
    for (int i = 0; i < 4; i++) { // task boundaries in both queues, alternately
      if (i % 2 == 0) {
        a.finishOn("v", a, b);
      } else {
        b.finishOn("t", a, b);
      }
      assertEquals("boundary " + i, 2, a.on("v"));
      assertEquals("boundary " + i, 2, b.on("t"));
      assertEquals("boundary " + i, 4, a.running.size() + b.running.size());
    }
    // yarn queue -status: 2 V100s of the 4 GPUs; the REST answer names the type (a has started
    // 4 of its 20 tasks: 2 running, 16 waiting)
    assertEquals(0.5f, h.rm.getClientRMService().getQueueInfo(GetQueueInfoRequest
        .newInstance("a", false, false, false)).getQueueInfo().getCapacity(), 1e-6);
    SchedulerReport.QueueLine line = h.scheduler().report().queues().get(1);
    assertEquals(new SchedulerReport.QueueLine("a", 0, 1, 2, 4, 2, 16, Map.of("v100", 1.0)),
        line);
  }

  @Test(timeout = 300_000)
  public void aQueueAloneBorrowsBothTypesAndGivesTheOthersBackAtItsTasksEnds()
      throws Exception {
    start();
    Tenant a = new Tenant("alice", "a");
    Tenant b = new Tenant("bob", "b");
    HareRm.askGpuTasks(a.am, 20);
    kick(a, b);
    assertEquals("b is idle: a borrows its T4s", 4, a.running.size());
    HareRm.askGpuTasks(b.am, 20);
    kick(a, b);
    assertEquals("nothing is killed", 0, b.running.size());
    a.finishOn("t", a, b);
    assertEquals("b's T4 comes back at a's task end", 1, b.on("t"));
    a.finishOn("v", a, b);
    assertEquals("a's own V100 goes back to a", 2, a.on("v"));
    a.finishOn("t", a, b);
    assertEquals(2, b.on("t"));
    assertEquals(0, a.on("t"));
  }
}
