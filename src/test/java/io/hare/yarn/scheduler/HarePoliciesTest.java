package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.Policies;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Every registered policy runs inside the RM unchanged: a job's round of two tasks gets both
 * GPUs of the node, and its second round the GPUs its first round freed.
 */
public class HarePoliciesTest {

  /** One-time loading outside the tests' timeouts. */
  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @Test(timeout = 600_000)
  public void everyRegisteredPolicyPlacesRoundsInTheRm() throws Exception {
    for (String name : Policies.names()) {
      YarnConfiguration conf = HareRm.conf();
      conf.set(SchedulerKeys.POLICY, name);
      try (HareRm h = HareRm.start(conf)) {
        assertEquals(name, h.scheduler().policy().name());
        MockNM nm = h.node("h1:1234", 2);
        MockAM am = h.launch(h.submit("hare.rounds=2", "hare.tasks-per-round=2",
            "hare.model=cnn"), nm);
        HareRm.askGpuTasks(am, 2);
        List<Container> first = h.heartbeatAndPull(am, nm);
        assertEquals(name + ": first round", 2, first.size());
        for (Container c : first) {
          h.finish(nm, c);
        }
        HareRm.askGpuTasks(am, 2);
        assertEquals(name + ": second round", 2, h.heartbeatAndPull(am, nm).size());
      }
    }
  }
}
