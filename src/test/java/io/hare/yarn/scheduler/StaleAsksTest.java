package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * An AM's ask that does not yet know of the containers the same call hands it must not put their
 * tasks back as pending (YARN-1902's over-allocation).
 */
public class StaleAsksTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void aStaleAskDoesNotAllocateTheSameTasksTwice() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(a, 2);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents(); // both allocated, not yet pulled
    // the AM re-sends its ask of 2 before it has seen them, as AMRMClient does when its table
    // changed for another reason; this call hands both containers out
    HareRm.askGpuTasks(a, 2);
    for (Container c : h.scheduler().getApplicationAttempt(a.getApplicationAttemptId())
        .getLiveContainers().stream().map(rc -> rc.getContainer())
        .filter(c -> HareRm.gpus(c) == 1).toList()) {
      h.finish(nm, c);
    }
    assertEquals("no task is allocated a second time once the GPUs are free", 0,
        h.heartbeatAndPull(a, nm).size());
  }

  @Test(timeout = 300_000)
  public void onlyGpuAsksOfTheHandedOutKeyAreLowered() {
    Priority p1 = Priority.newInstance(1);
    ResourceRequest gpu = ResourceRequest.newInstance(p1, ResourceRequest.ANY,
        HareRm.resource(1024, 1, 1), 3);
    ResourceRequest cpu = ResourceRequest.newInstance(Priority.newInstance(0),
        ResourceRequest.ANY, HareRm.resource(1024, 1, 0), 1);
    Container handed = Container.newInstance(null, null, null, HareRm.resource(1024, 1, 1), p1,
        null);
    List<ResourceRequest> fixed = StaleAsks.correct(List.of(gpu, cpu), List.of(handed, handed));
    assertEquals(1, fixed.get(0).getNumContainers());
    assertEquals(1, fixed.get(1).getNumContainers());
    assertEquals("the AM's own request is not changed", 3, gpu.getNumContainers());
    assertEquals(0, StaleAsks.correct(List.of(gpu), List.of(handed, handed, handed, handed))
        .get(0).getNumContainers());
  }
}
