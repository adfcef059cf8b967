package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.yarn.GpuDevices;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * Containers of several GPUs from AMs that do not speak the Hare protocol: served on one node,
 * with a reservation that keeps the policy's one-GPU tasks off the GPUs it waits for, and given
 * back when the ask goes. A Hare AM is refused them.
 */
public class MultiGpuContainersTest extends MockRmTestCase {

  /** Asks {@code n} containers of {@code gpus} GPUs each (priority 2, beside one-GPU asks). */
  private static void ask(MockAM am, int gpus, int n) throws Exception {
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(2), ResourceRequest.ANY,
        HareRm.resource(2048, 2, gpus), n)), List.of());
  }

  @Test(timeout = 300_000)
  public void aTwoGpuContainerOfAPlainAmIsServedOnOneNodeWithTwoDevices() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 4);
    MockAM plain = h.launch(h.submit(), nm);
    ask(plain, 2, 1);
    List<Container> got = h.heartbeatAndPull(plain, nm);
    assertEquals(1, got.size());
    assertEquals(2, HareRm.gpus(got.get(0)));
    Set<Integer> devices = GpuDevices.all(got.get(0).getAllocationTags());
    assertEquals("two devices of its own: " + got.get(0).getAllocationTags(), 2, devices.size());
    assertEquals("no one-GPU task of the policy", 0, h.scheduler().runningGpuTasks());
    assertEquals(2, h.scheduler().getSchedulerNode(nm.getNodeId()).getUnallocatedResource()
        .getResourceValue(HareRm.GPU));
  }

  @Test(timeout = 300_000)
  public void aReservedNodesFreedGpusWaitForTheLargeContainerNotForOneGpuTasks()
      throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM tasks = h.launch(h.submitHare("hare.rounds=4", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(tasks, 2);
    List<Container> first = h.heartbeatAndPull(tasks, nm);
    assertEquals("both GPUs busy with one-GPU tasks", 2, first.size());
    HareRm.askGpuTasks(tasks, 0);

    MockAM plain = h.launch(h.submit(), nm);
    ask(plain, 2, 1);
    assertEquals(0, h.heartbeatAndPull(plain, nm).size());
    HareRm.askGpuTasks(tasks, 2); // the next round is ready

    h.finish(nm, first.get(0));
    assertEquals("the freed GPU is held for the 2-GPU container", 0,
        h.heartbeatAndPull(tasks, nm).size());
    assertEquals("and shown", 1, h.scheduler().hareMetrics().gpusReserved());
    h.finish(nm, first.get(1));
    List<Container> large = h.heartbeatAndPull(plain, nm);
    assertEquals(1, large.size());
    assertEquals(2, HareRm.gpus(large.get(0)));
    assertEquals("the tasks wait for the large container", 0,
        h.heartbeatAndPull(tasks, nm).size());
    assertEquals("placed: nothing held", 0, h.scheduler().hareMetrics().gpusReserved());

    h.finish(nm, large.get(0));
    assertEquals("its GPUs go back to the policy", 2, h.heartbeatAndPull(tasks, nm).size());
  }

  @Test(timeout = 300_000)
  public void aWithdrawnAskGivesTheHeldGpusBack() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM tasks = h.launch(h.submitHare("hare.rounds=4", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(tasks, 1);
    List<Container> first = h.heartbeatAndPull(tasks, nm);
    assertEquals(1, first.size());
    HareRm.askGpuTasks(tasks, 0);

    MockAM plain = h.launch(h.submit(), nm);
    ask(plain, 2, 1);
    assertEquals("one GPU is free, two are needed", 0, h.heartbeatAndPull(plain, nm).size());
    HareRm.askGpuTasks(tasks, 1);
    assertEquals("the free GPU is held", 0, h.heartbeatAndPull(tasks, nm).size());

    ask(plain, 2, 0);
    assertEquals("the AM withdrew its ask: the held GPU goes to the waiting task", 1,
        h.heartbeatAndPull(tasks, nm).size());
  }

  @Test(timeout = 300_000)
  public void aHareAmIsRefusedAContainerOfMoreThanOneGpu() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 4);
    MockAM hare = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=1"), nm);
    try {
      ask(hare, 2, 1);
      fail("a Hare AM's 2-GPU ask was accepted");
    } catch (Exception e) {
      assertTrue(e.toString(), e.toString().contains("one GPU per task container")
          && e.toString().contains("yarn.io/gpu=2"));
    }
    assertEquals("nothing placed", 0, h.heartbeatAndPull(hare, nm).size());
  }
}
