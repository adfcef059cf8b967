package io.hare.yarn.scheduler;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import io.hare.core.SchedulerKeys;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.Test;

/**
 * ApplicationMasters together hold at most their share of the cluster: one past it waits for
 * another AM to end; the first always starts.
 */
public class AmLimitTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void anAmPastTheShareWaitsForAnotherToEnd() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    // 10% of one 16 GB node: one AM of 1 GB fits, a second would hold 2 GB
    conf.setDouble(SchedulerKeys.QUEUE_DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT, 0.1);
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 2);
    MockAM first = h.launch(h.submit(), nm); // the first AM starts whatever the share
    RMApp second = h.submit();
    for (int i = 0; i < 3; i++) {
      nm.nodeHeartbeat(true);
      h.rm.drainEvents();
    }
    assertNull("the second AM waits", second.getCurrentAppAttempt().getMasterContainer());

    first.unregisterAppAttempt();
    nm.nodeHeartbeat(first.getApplicationAttemptId(), 1, ContainerState.COMPLETE);
    h.rm.waitForState(first.getApplicationAttemptId().getApplicationId(),
        RMAppState.FINISHED);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertNotNull("the first AM ended: the second starts",
        second.getCurrentAppAttempt().getMasterContainer());
  }
}
