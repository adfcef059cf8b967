package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.queues.QueueShares;
import io.hare.embedded.EmbeddedCluster;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The tenants demo's queues: fleet shares by default, per-type guarantees when given. */
public class TenantsWorkloadTest {

  private static final List<EmbeddedCluster.Node> CLUSTER = List.of(
      new EmbeddedCluster.Node("v100", 1), new EmbeddedCluster.Node("t4", 2),
      new EmbeddedCluster.Node("k80", 2));

  private static QueueShares read(Map<String, String> settings) throws Exception {
    PolicyConfig c = new PolicyConfig(settings, 0);
    QueueShares q = QueueShares.read(c);
    c.check();
    return q;
  }

  @Test
  public void byDefaultTheTeamsAreGuaranteedTheirFleetShares() throws Exception {
    Map<String, String> s = TenantsWorkload.schedulerSettings(Map.of());
    assertEquals("team-a,team-b", s.get(SchedulerKeys.QUEUES));
    assertEquals(Map.of("team-a", 0.6, "team-b", 0.4),
        TenantsWorkload.shares(read(s), CLUSTER));
  }

  @Test
  public void aTeamGuaranteedGpuTypesTakesNoFleetShare() throws Exception {
    String a = SchedulerKeys.QUEUE_PREFIX + "team-a.guaranteed-gpu-share";
    Map<String, String> s = TenantsWorkload.schedulerSettings(Map.of(a + ".v100", "1",
        a + ".t4", "0.5"));
    assertFalse("the demo's own fleet share would clash with them", s.containsKey(a));
    // team-a: the V100 and one of the 2 T4s, 2 of the 5 GPUs; team-b keeps 0.4 of the fleet
    assertEquals(Map.of("team-a", 0.4, "team-b", 0.4), TenantsWorkload.shares(read(s), CLUSTER));
  }
}
