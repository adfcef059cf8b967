package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.blind.YarnFifoPolicy;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.After;
import org.junit.Test;

/**
 * {@code yarn.scheduler.hare.pass.min-interval-ms}: a heartbeat within the interval of the last
 * policy pass places nothing but loses nothing; the first heartbeat after it places for
 * everything that changed meanwhile. With the interval at 0 every heartbeat that changed
 * something runs a pass.
 */
public class PassIntervalTest {

  private static final long INTERVAL_MS = 100;

  private HareRm h;

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  private ControlledClock start(long intervalMs) {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.POLICY, YarnFifoPolicy.NAME);
    conf.setLong(SchedulerKeys.PASS_MIN_INTERVAL_MS, intervalMs);
    h = HareRm.start(conf);
    return h.controlledClock();
  }

  @Test(timeout = 300_000)
  public void heartbeatsWithinTheIntervalPlaceNothingAndTheFirstAfterItPlacesForAllOfThem()
      throws Exception {
    ControlledClock clock = start(INTERVAL_MS);
    MockNM h1 = h.node("h1:1234", 4);
    MockAM am = h.launch(h.submit(), h1);
    clock.tickMsec(INTERVAL_MS); // past any pass the AM's launch ran

    HareRm.askGpuTasks(am, 1);
    assertEquals("a pass: the first heartbeat since the interval", 1,
        h.heartbeatAndPull(am, h1).size());

    clock.tickMsec(INTERVAL_MS - 1);
    long passes = h.scheduler().hareMetrics().passes();
    HareRm.askGpuTasks(am, 2);
    assertEquals("within the interval: no pass", 0, h.heartbeatAndPull(am, h1).size());
    assertEquals("still within it", 0, h.heartbeatAndPull(am, h1).size());
    assertEquals("the metric counts no pass either", passes,
        h.scheduler().hareMetrics().passes());

    clock.tickMsec(1);
    List<Container> after = h.heartbeatAndPull(am, h1);
    assertEquals("the interval is over: one pass places both asks", 2, after.size());
    assertEquals(passes + 1, h.scheduler().hareMetrics().passes());
    assertEquals("and nothing more", 0, h.heartbeatAndPull(am, h1).size());
  }

  @Test(timeout = 300_000)
  public void withoutAnIntervalEveryHeartbeatThatChangedSomethingRunsAPass() throws Exception {
    start(0); // the clock stands still
    MockNM h1 = h.node("h1:1234", 4);
    MockAM am = h.launch(h.submit(), h1);

    HareRm.askGpuTasks(am, 1);
    assertEquals(1, h.heartbeatAndPull(am, h1).size());
    HareRm.askGpuTasks(am, 1);
    assertEquals(1, h.heartbeatAndPull(am, h1).size());
  }
}
