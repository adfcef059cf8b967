package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import io.hare.core.SchedulerKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.PreemptionMessage;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.Test;

/**
 * GPU guarantees and maxima in dispatch ({@link QueueGate}), on one node of 4 V100s with queues
 * a (guaranteed 0.75: 3 GPUs) and b (0.25: 1 GPU): both saturated, each holds its guarantee
 * across task boundaries; a queue alone borrows every GPU and gives the borrowed ones back as
 * its tasks end (within one task time, nothing killed); a queue at its maximum gets no more.
 */
public class QueueGuaranteesTest extends MockRmTestCase {

  private MockNM nm;

  /** A queue's AM and the GPU containers it holds now. */
  private final class Tenant {
    final MockAM am;
    final List<Container> running = new ArrayList<>();

    Tenant(String user, String queue) throws Exception {
      RMApp app = MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
          .createWithMemory(1024, h.rm).withUser(user).withQueue(queue).build());
      am = h.launch(app, nm);
    }

    /** Pulls what the RM placed for it since the last pull. */
    int pull() throws Exception {
      List<Container> got = am.allocate(List.of(), List.of()).getAllocatedContainers();
      running.addAll(got);
      return got.size();
    }

    /** Its oldest running task ends; every tenant pulls what that boundary gave it. */
    void finishOne(Tenant... all) throws Exception {
      h.finish(nm, running.remove(0));
      for (Tenant t : all) {
        t.pull();
      }
    }
  }

  private void start(String bMaximum) throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.QUEUES, "a,b");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "a.guaranteed-gpu-share", "0.75");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "b.guaranteed-gpu-share", "0.25");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "b.maximum-gpu-share", bMaximum);
    h = HareRm.start(conf);
    nm = h.node("h1:1234", 4);
    h.setType("h1", "v100");
  }

  private void kick(Tenant... all) throws Exception {
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    for (Tenant t : all) {
      t.pull();
    }
  }

  @Test(timeout = 300_000)
  public void bothSaturatedEachKeepsItsGuaranteeAtTaskBoundaries() throws Exception {
    start("1.0");
    Tenant a = new Tenant("alice", "a");
    Tenant b = new Tenant("bob", "b");
    HareRm.askGpuTasks(b.am, 20);
    HareRm.askGpuTasks(a.am, 20);
    kick(a, b);
    assertEquals(3, a.running.size());
    assertEquals(1, b.running.size());
    for (int i = 0; i < 6; i++) { // task boundaries in both queues, alternately
      (i % 2 == 0 ? a : b).finishOne(a, b);
      assertEquals("boundary " + i, 3, a.running.size());
      assertEquals("boundary " + i, 1, b.running.size());
    }
  }

  @Test(timeout = 300_000)
  public void anIdleGuaranteeIsLentAndComesBackAsTheBorrowersTasksEnd() throws Exception {
    start("1.0");
    Tenant a = new Tenant("alice", "a");
    Tenant b = new Tenant("bob", "b");
    HareRm.askGpuTasks(b.am, 20);
    kick(a, b);
    assertEquals("a is idle: b borrows every GPU", 4, b.running.size());
    HareRm.askGpuTasks(a.am, 20);
    kick(a, b);
    assertEquals("nothing is killed", 0, a.running.size());
    int[] expectedA = {1, 2, 3, 3};
    int[] expectedB = {3, 2, 1, 1};
    for (int i = 0; i < 4; i++) { // each of the tasks b had when a asked: one task time
      b.finishOne(a, b);
      assertEquals("after b's task " + i, expectedA[i], a.running.size());
      assertEquals("after b's task " + i, expectedB[i], b.running.size());
    }
  }

  /**
   * A Hare AM keeps a warm GPU for its job's next task while its job is first in line; a
   * borrower's job is asked for its GPUs back (at its tasks' ends, the negotiable contract) as
   * soon as another queue waits for its guarantee, however the policy ranks the two jobs.
   */
  @Test(timeout = 300_000)
  public void aBorrowersWarmGpusGoBackWhileAnotherQueueWaitsForItsGuarantee() throws Exception {
    start("1.0");
    MockAM heavy = h.launch(MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withUser("bob").withQueue("b")
        .withApplicationTags(Set.of(HareRm.HARE_AM, "hare.weight=8", "hare.rounds=20",
            "hare.tasks-per-round=4")).build()), nm);
    HareRm.askGpuTasks(heavy, 8); // ready tasks left: first in line for the next free GPU
    List<Container> borrowed = h.heartbeatAndPull(heavy, nm);
    assertEquals(4, borrowed.size());
    assertNull("first in line, alone: it keeps its GPUs warm",
        heavy.allocate(List.of(), List.of()).getPreemptionMessage());
    MockAM light = h.launch(MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withUser("alice").withQueue("a")
        .withApplicationTags(Set.of(HareRm.HARE_AM, "hare.weight=1", "hare.rounds=20",
            "hare.tasks-per-round=4")).build()), nm);
    HareRm.askGpuTasks(light, 4);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    PreemptionMessage m = heavy.allocate(List.of(), List.of()).getPreemptionMessage();
    assertNotNull("a waits for its guarantee: b's borrowed GPUs are asked back", m);
    assertNull("never a strict contract", m.getStrictContract());
    assertEquals(borrowed.stream().map(Container::getId).collect(Collectors.toSet()),
        m.getContract().getContainers().stream().map(c -> c.getId())
            .collect(Collectors.toSet()));
  }

  @Test(timeout = 300_000)
  public void aQueueAtItsMaximumGetsNoMoreEvenWithGpusIdle() throws Exception {
    start("0.5");
    Tenant b = new Tenant("bob", "b");
    HareRm.askGpuTasks(b.am, 20);
    kick(b);
    assertEquals("b's maximum: 0.5 of 4 GPUs", 2, b.running.size());
    b.finishOne(b);
    assertEquals(2, b.running.size());
    assertEquals("the others stay idle", 2, h.scheduler().runningGpuTasks());
  }
}
