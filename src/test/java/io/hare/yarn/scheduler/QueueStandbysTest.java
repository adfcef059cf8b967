package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import java.util.List;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * Standbys follow the queues: a GPU that frees goes first to a queue below its guarantee, so the
 * standby made ahead for it is that queue's job's, even where the policy's global order ranks a
 * job of the borrowing queue first. One node of 2 V100s, queues a and b guaranteed 1 GPU each.
 */
public class QueueStandbysTest extends MockRmTestCase {

  private MockNM nm;

  private void start() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.QUEUES, "a,b");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "a.guaranteed-gpu-share", "0.5");
    conf.set(SchedulerKeys.QUEUE_PREFIX + "b.guaranteed-gpu-share", "0.5");
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, true);
    conf.setLong(SchedulerKeys.STANDBY_LEAD_MS, 86_400_000L); // every running task ends soon
    h = HareRm.start(conf);
    nm = h.node("h1:1234", 2);
    h.setType("h1", "v100");
  }

  private void running(MockAM am, Container c) throws Exception {
    nm.nodeHeartbeat(am.getApplicationAttemptId(), c.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
  }

  @Test(timeout = 300_000)
  public void theQueueBelowItsGuaranteeGetsTheStandbyAndThenTheGpu() throws Exception {
    start();
    MockAM b1 = h.launch(h.submitHareTo("b", "hare.rounds=1", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(b1, 2);
    List<Container> borrowed = h.heartbeatAndPull(b1, nm);
    assertEquals("a is idle: b borrows both GPUs", 2, borrowed.size());
    for (Container c : borrowed) {
      running(b1, c);
    }
    HareRm.askGpuTasks(b1, 0);
    // b2 ranks first in the policy's order (weight 8), a1 waits for a's guarantee
    MockAM b2 = h.launch(h.submitHareTo("b", "hare.weight=8", "hare.rounds=1",
        "hare.tasks-per-round=2", "hare.standby=true"), nm);
    MockAM a1 = h.launch(h.submitHareTo("a", "hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    HareRm.askGpuTasks(b2, 2);
    HareRm.askGpuTasks(a1, 1);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    nm.nodeHeartbeat(true); // the standbys follow the line published by the pass before
    h.rm.drainEvents();
    List<Container> standbyOfA = a1.allocate(List.of(), List.of()).getAllocatedContainers();
    List<Container> standbysOfB = b2.allocate(List.of(), List.of()).getAllocatedContainers();
    assertEquals("a standby for a1, whose queue gets the next GPU", 1, standbyOfA.size());
    assertEquals("without a GPU", 0, HareRm.gpus(standbyOfA.get(0)));
    assertEquals("one for b2 on the other GPU", 1, standbysOfB.size());
    running(a1, standbyOfA.get(0));
    running(b2, standbysOfB.get(0));

    h.finish(nm, borrowed.get(0));
    AllocateResponse r = a1.allocate(List.of(), List.of());
    assertEquals("no new container for a1", 0, r.getAllocatedContainers().size());
    assertEquals("its standby got the GPU", 1, r.getUpdatedContainers().size());
    assertEquals(ContainerUpdateType.INCREASE_RESOURCE, r.getUpdatedContainers().get(0)
        .getUpdateType());
    assertEquals(1, HareRm.gpus(r.getUpdatedContainers().get(0).getContainer()));
    assertEquals(1, h.scheduler().runningTasks(a1.getApplicationAttemptId().getApplicationId()));
  }
}
