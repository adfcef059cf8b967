package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.After;
import org.junit.Test;

/** The basic path: AMs FIFO, GPU tasks through the policy, no GPU over-committed. */
public class HareSchedulerTest {

  private HareRm h;

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test(timeout = 60_000)
  public void neverMoreGpuTasksOnANodeThanItHasGpus() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    RMApp app = h.submit();
    MockAM am = h.launch(app, nm);
    HareRm.askGpuTasks(am, 3);
    List<Container> got = h.heartbeatAndPull(am, nm);
    assertEquals("2 GPUs, 3 asks: 2 containers", 2, got.size());
    assertTrue(got.stream().allMatch(c -> HareRm.gpus(c) == 1));
    assertEquals(0, h.heartbeatAndPull(am, nm).size());
    h.finish(nm, got.get(0));
    List<Container> third = h.heartbeatAndPull(am, nm);
    assertEquals("the freed GPU takes the third task", 1, third.size());
  }
}
