package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Constructor;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.FifoSchedulerInfo;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The RM web UI's scheduler page with the Hare scheduler: the RM's controller renders
 * {@code DefaultSchedulerPage} (package-private) for any {@link FifoScheduler}, which reads the queue through
 * {@link FifoSchedulerInfo}. Two 2-GPU nodes of 16 GB; an AM and three one-GPU tasks of 1 GB.
 */
public class HareSchedulerPageTest {

  private HareRm h;

  /** One-time loading outside the tests' timeouts. */
  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  private void threeTasksOnTwoNodes() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM a = h.node("h1:1234", 2);
    MockNM b = h.node("h2:1234", 2);
    MockAM am = h.launch(h.submit(), a);
    HareRm.askGpuTasks(am, 3);
    List<Container> got = h.heartbeatAndPull(am, a, b);
    assertEquals(3, got.size());
  }

  @Test(timeout = 300_000)
  public void schedulerInfoCountsNodesContainersAndTheDominantShare() throws Exception {
    threeTasksOnTwoNodes();
    assertTrue("the controller picks the FIFO page",
        h.rm.getResourceScheduler() instanceof FifoScheduler);
    FifoSchedulerInfo info = new FifoSchedulerInfo(h.rm);
    assertEquals("default", info.getQueueName());
    assertEquals("RUNNING", info.getState());
    assertEquals(2, info.getNumNodes());
    assertEquals("the AM and three tasks", 4, info.getNumContainers());
    assertEquals(32 * 1024, info.getTotalNodeCapacity());
    assertEquals(4 * 1024, info.getUsedNodeCapacity());
    assertEquals(28 * 1024, info.getAvailNodeCapacity());
    assertEquals(1.0f, info.getCapacity(), 1e-6);
    assertEquals("3 of 4 GPUs (memory: 4 of 32 GB)", 0.75f, info.getUsedCapacity(), 1e-6);
    assertEquals(h.scheduler().getMinimumResourceCapability().getMemorySize(),
        info.getMinQueueMemoryCapacity());
    assertEquals(h.scheduler().getMaximumResourceCapability().getMemorySize(),
        info.getMaxQueueMemoryCapacity());
  }

  /**
   * Builds the page's queue block as Guice does: the step that threw a ClassCastException for a
   * scheduler that is not a FifoScheduler. (Rendering it needs Hadoop's WebAppTests, which needs
   * Mockito, not a dependency here.)
   */
  @Test(timeout = 300_000)
  public void defaultSchedulerPageQueuesBlockBuilds() throws Exception {
    threeTasksOnTwoNodes();
    Constructor<?> block = Class.forName(
        "org.apache.hadoop.yarn.server.resourcemanager.webapp.DefaultSchedulerPage$QueuesBlock")
        .getDeclaredConstructor(ResourceManager.class);
    block.setAccessible(true);
    assertNotNull(block.newInstance(h.rm));
  }
}
