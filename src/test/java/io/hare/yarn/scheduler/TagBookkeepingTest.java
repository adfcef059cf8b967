package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.SchedulerKeys;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * YARN's allocation tags manager (what placement constraints read) counts a container's tags
 * from its start to its release: when a promotion or a parking changes a container's device tag,
 * the count follows, so that at its release the node's count comes back to nothing, with no
 * "tag no longer exists" warning and no tag counted for good.
 */
public class TagBookkeepingTest {

  private HareRm h;
  private MockNM nm;

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

  /** Standbys on, with a lead of a day: any running task is about to end. */
  private void start() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, true);
    conf.setLong(SchedulerKeys.STANDBY_LEAD_MS, 86_400_000L);
    h = HareRm.start(conf);
    nm = h.node("h1:1234", 1);
  }

  /** The tags counted on the node, without the AMs' (they have none). */
  private Map<String, Long> counted() {
    Map<String, Long> m = h.rm.getRMContext().getAllocationTagsManager()
        .getAllocationTagsWithCount(nm.getNodeId());
    return m == null ? Map.of() : new TreeMap<>(m);
  }

  private void running(MockAM am, Container c) throws Exception {
    nm.nodeHeartbeat(am.getApplicationAttemptId(), c.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
  }

  @Test(timeout = 300_000)
  public void aPromotedStandbyIsCountedUnderItsDeviceAndReleasedCleanly() throws Exception {
    start();
    MockAM a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(a, 1);
    Container aTask = h.heartbeatAndPull(a, nm).get(0);
    running(a, aTask);
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    b.allocate(List.of(ResourceRequest.newBuilder().priority(Priority.newInstance(1))
        .resourceName(ResourceRequest.ANY).capability(HareRm.resource(1024, 1, 1))
        .numContainers(1).allocationRequestId(7).build()), List.of());
    Container standby = h.heartbeatAndPull(b, nm).get(0);
    running(b, standby);
    String device = GpuDevices.tag(GpuDevices.of(aTask.getAllocationTags()).getAsInt());
    String hint = GpuDevices.standbyTag(GpuDevices.expected(standby.getAllocationTags())
        .getAsInt());
    assertEquals("a's task and b's standby", Map.of(device, 1L, JobTags.PARKABLE, 1L, hint, 1L),
        counted());

    h.finish(nm, aTask);
    UpdatedContainer u = b.allocate(List.of(), List.of()).getUpdatedContainers().get(0);
    assertEquals(ContainerUpdateType.INCREASE_RESOURCE, u.getUpdateType());
    assertEquals("the promoted standby, under its device, with its hint gone",
        Map.of(device, 1L, JobTags.PARKABLE, 1L), counted());

    h.finish(nm, u.getContainer());
    assertEquals("nothing left counted", Map.of(), counted());
  }

  @Test(timeout = 300_000)
  public void aParkedContainerIsCountedWithoutItsDeviceAndReleasedCleanly() throws Exception {
    start();
    MockAM a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    HareRm.askGpuTasks(a, 1);
    Container task = h.heartbeatAndPull(a, nm).get(0);
    int version = task.getVersion(); // MockAM shares the RM's record: read it now
    running(a, task);
    HareRm.askGpuTasks(a, 0);
    assertEquals(Map.of(GpuDevices.tag(0), 1L, JobTags.PARKABLE, 1L), counted());

    a.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(version,
        task.getId(), ContainerUpdateType.DECREASE_RESOURCE, HareRm.resource(1024, 1, 0), null)));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals("parked: no GPU, no device", 1, h.scheduler().standbys());
    assertEquals(Map.of(JobTags.PARKABLE, 1L), counted());

    h.finish(nm, task);
    assertEquals("nothing left counted", Map.of(), counted());
  }
}
