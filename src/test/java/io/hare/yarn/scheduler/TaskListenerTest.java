package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/** A task listener hears asks, consultations, starts and ends in the scheduler's order. */
public class TaskListenerTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void hearsAsksThePolicyConsultedStartsAndEnds() throws Exception {
    h = HareRm.start(HareRm.conf());
    List<String> heard = new ArrayList<>();
    h.scheduler().addTaskListener(new TaskListener() {
      @Override
      public void asksChanged(ApplicationId app, int outstanding, long nowMs) {
        heard.add("asks " + outstanding);
      }

      @Override
      public void policyConsulted(long nowMs) {
        heard.add("consulted");
      }

      @Override
      public void taskStarted(ApplicationId app, ContainerId container, NodeId node,
          String gpuType, long nowMs) {
        heard.add("started on " + node.getHost());
      }

      @Override
      public void taskEnded(ApplicationId app, ContainerId container, boolean ok, long nowMs) {
        heard.add("ended " + (ok ? "ok" : "failed"));
      }
    });
    MockNM nm = h.node("h1:1234", 1);
    MockAM a = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(a, 1);
    List<Container> got = h.heartbeatAndPull(a, nm);
    assertEquals(1, got.size());
    h.finish(nm, got.get(0));
    int asks = heard.indexOf("asks 1"); // the AM's own container came first, with no GPU ask
    int started = heard.indexOf("started on h1");
    int ended = heard.indexOf("ended ok");
    assertTrue(heard.toString(), asks >= 0 && asks < started && started < ended);
    assertEquals("the policy decided between the asks and the start", "consulted",
        heard.get(started - 1));
  }
}
