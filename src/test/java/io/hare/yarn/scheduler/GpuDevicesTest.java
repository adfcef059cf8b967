package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.SchedulerKeys;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.After;
import org.junit.Test;

/**
 * Every GPU container on a node whose GPUs YARN does not isolate carries its device
 * ({@link GpuDevices}): containers that run at the same time on one node never share a device,
 * standbys on or off; a warm container keeps its device; a promoted standby gets the device of
 * the GPU it was given. A node that isolates its GPUs gets no device tags (YARN assigns the
 * devices there), no standby and no parked container.
 */
public class GpuDevicesTest {

  private HareRm h;
  private MockNM nm;
  private MockAM a;

  /** A host of its own: node attributes persist in a store that other tests' RMs read. */
  private static final String ISOLATED_HOST = "gpu-devices-isolated";

  @After
  public void stop() throws Exception {
    if (h != null) {
      h.rm.getRMContext().getNodeAttributesManager().replaceNodeAttributes(
          NodeAttribute.PREFIX_CENTRALIZED, Map.of(ISOLATED_HOST, Set.of()));
      h.close();
    }
  }

  /**
   * A node of two GPUs, both running a task of job a (k tasks, one round); a's tasks, devices 0
   * and 1.
   */
  private List<Container> twoBusyGpus(boolean standbys, int k) throws Exception {
    h = HareRm.start(HareRm.standbysAhead(standbys));
    nm = h.node("h1:1234", 2);
    a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=" + k), nm);
    HareRm.askGpuTasks(a, k);
    List<Container> aTasks = h.heartbeatAndPull(a, nm);
    assertEquals(2, aTasks.size());
    for (Container c : aTasks) {
      running(nm, a, c);
    }
    assertEquals(Set.of(0, 1), Set.of(deviceOf(aTasks.get(0)), deviceOf(aTasks.get(1))));
    return aTasks;
  }

  private static Container onDevice(List<Container> cs, int device) {
    return cs.stream().filter(c -> deviceOf(c) == device).findFirst().orElseThrow();
  }

  private static OptionalInt device(Container c) {
    return GpuDevices.of(c.getAllocationTags());
  }

  private static int deviceOf(Container c) {
    OptionalInt d = device(c);
    assertTrue(c.getId() + " names its device: " + c.getAllocationTags(), d.isPresent());
    return d.getAsInt();
  }

  private void running(MockNM nm, MockAM am, Container c) throws Exception {
    nm.nodeHeartbeat(am.getApplicationAttemptId(), c.getId().getContainerId(),
        ContainerState.RUNNING);
    h.rm.drainEvents();
  }

  @Test(timeout = 300_000)
  public void tasksThatOverlapOnANodeNeverShareADeviceWithoutStandbys() throws Exception {
    overlappingTasksNeverShareADevice(false);
  }

  @Test(timeout = 300_000)
  public void tasksThatOverlapOnANodeNeverShareADeviceWithStandbys() throws Exception {
    overlappingTasksNeverShareADevice(true);
  }

  /**
   * Two jobs that take standbys, 12 tasks each, on a node of 4 GPUs and one of 2: the oldest
   * task ends at each step, and at every step the GPU containers running on each node have
   * distinct devices below the node's GPU count.
   */
  private void overlappingTasksNeverShareADevice(boolean standbys) throws Exception {
    h = HareRm.start(HareRm.standbysAhead(standbys));
    MockNM big = h.node("h1:1234", 4);
    MockNM small = h.node("h2:1234", 2);
    Map<NodeId, MockNM> nms = Map.of(big.getNodeId(), big, small.getNodeId(), small);
    Map<NodeId, Integer> gpus = Map.of(big.getNodeId(), 4, small.getNodeId(), 2);
    List<MockAM> ams = new ArrayList<>();
    for (int weight : new int[] {1, 3}) {
      MockAM am = h.launch(h.submitHare("hare.weight=" + weight, "hare.rounds=1",
          "hare.tasks-per-round=12", "hare.standby=true"), big);
      HareRm.askGpuTasks(am, 12);
      ams.add(am);
    }
    Map<ContainerId, Container> running = new LinkedHashMap<>(); // oldest first
    Map<ContainerId, MockNM> nodeOf = new HashMap<>();
    int promoted = 0;
    int done = 0;
    for (int step = 0; step < 60 && done < 24; step++) {
      big.nodeHeartbeat(true);
      small.nodeHeartbeat(true);
      h.rm.drainEvents();
      for (MockAM am : ams) {
        AllocateResponse r = am.allocate(List.of(), List.of());
        List<Container> got = new ArrayList<>(r.getAllocatedContainers());
        for (UpdatedContainer u : r.getUpdatedContainers()) {
          if (u.getUpdateType() == ContainerUpdateType.INCREASE_RESOURCE) {
            got.add(u.getContainer());
            promoted++;
          }
        }
        for (Container c : got) {
          MockNM nm = nms.get(c.getNodeId());
          if (HareRm.gpus(c) == 0) {
            assertFalse("a standby has no device: " + c.getAllocationTags(),
                device(c).isPresent());
          } else {
            running.put(c.getId(), c);
          }
          if (!nodeOf.containsKey(c.getId())) {
            nodeOf.put(c.getId(), nm);
            running(nm, am, c);
          }
        }
      }
      assertDistinctDevices(running.values(), gpus);
      assertEquals(running.size(), h.scheduler().runningGpuTasks());
      if (!running.isEmpty()) {
        Container oldest = running.values().iterator().next();
        running.remove(oldest.getId());
        h.finish(nodeOf.get(oldest.getId()), oldest);
        done++;
      }
    }
    assertEquals("every task ran", 24, done);
    assertEquals("standbys were " + (standbys ? "" : "not ") + "promoted", standbys,
        promoted > 0);
  }

  private static void assertDistinctDevices(Iterable<Container> running,
      Map<NodeId, Integer> gpus) {
    Map<NodeId, Set<Integer>> used = new HashMap<>();
    for (Container c : running) {
      int d = deviceOf(c);
      assertTrue(c.getId() + " on device " + d + " of " + gpus.get(c.getNodeId()),
          d >= 0 && d < gpus.get(c.getNodeId()));
      assertTrue("device " + d + " of " + c.getNodeId() + " given twice",
          used.computeIfAbsent(c.getNodeId(), n -> new HashSet<>()).add(d));
    }
  }

  @Test(timeout = 300_000)
  public void aPromotedStandbyGetsTheDeviceOfTheGpuItIsGiven() throws Exception {
    List<Container> aTasks = twoBusyGpus(true, 2);
    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    HareRm.askGpuTasks(b, 1);
    List<Container> got = h.heartbeatAndPull(b, nm);
    assertEquals("a standby for b", 1, got.size());
    Container standby = got.get(0);
    assertFalse("no GPU yet, no device", device(standby).isPresent());
    running(nm, b, standby);

    h.finish(nm, onDevice(aTasks, 1));
    List<UpdatedContainer> updates = b.allocate(List.of(), List.of()).getUpdatedContainers();
    assertEquals(1, updates.size());
    assertEquals(ContainerUpdateType.INCREASE_RESOURCE, updates.get(0).getUpdateType());
    assertEquals(standby.getId(), updates.get(0).getContainer().getId());
    assertEquals("the device of the GPU that freed", 1, deviceOf(updates.get(0).getContainer()));
    assertTrue("still parkable", updates.get(0).getContainer().getAllocationTags()
        .contains(JobTags.PARKABLE));
  }

  @Test(timeout = 300_000)
  public void aWarmContainerKeepsItsDeviceAndNoOtherTaskGetsIt() throws Exception {
    List<Container> aTasks = twoBusyGpus(false, 3);
    Container warm = onDevice(aTasks, 1);
    Container other = onDevice(aTasks, 0);
    // the warm container runs a's third task: the AM withdraws that ask and reports the start
    HareRm.askGpuTasks(a, 0);
    a.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(warm.getVersion(),
        warm.getId(), ContainerUpdateType.DECREASE_RESOURCE, warm.getResource(), null)));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals(1, deviceOf(warm));

    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=2"), nm);
    HareRm.askGpuTasks(b, 2);
    h.finish(nm, other);
    List<Container> bTasks = h.heartbeatAndPull(b, nm);
    assertEquals("one GPU freed", 1, bTasks.size());
    assertEquals("the freed device, not the warm container's", 0, deviceOf(bTasks.get(0)));
    assertNotEquals(deviceOf(warm), deviceOf(bTasks.get(0)));
  }

  /** Sets the isolation attribute of a host centrally (rm.yarn.io), as an admin would. */
  private void isolate(String host) throws Exception {
    NodeAttribute a = NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED,
        GpuDevices.ISOLATION_ATTRIBUTE, NodeAttributeType.STRING, "true");
    h.rm.getRMContext().getNodeAttributesManager().replaceNodeAttributes(
        NodeAttribute.PREFIX_CENTRALIZED, Map.of(host, Set.of(a)));
    h.rm.drainEvents();
  }

  /** Whether the one-GPU task of a new job on a fresh node without the attribute has a device. */
  private boolean silentNodeTaskHasADevice(YarnConfiguration conf) throws Exception {
    h = HareRm.start(conf);
    nm = h.node("h1:1234", 2);
    a = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1"), nm);
    HareRm.askGpuTasks(a, 1);
    List<Container> got = h.heartbeatAndPull(a, nm);
    assertEquals(1, got.size());
    h.close();
    h = null;
    return device(got.get(0)).isPresent();
  }

  @Test(timeout = 300_000)
  public void aNodeThatDoesNotSayIsTakenAsTheDefaultOrTheRmsOwnConfigurationSays()
      throws Exception {
    assertTrue("auto, the RM configured as a NodeManager without YARN's GPU plugin",
        silentNodeTaskHasADevice(HareRm.conf()));
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.GPU_ISOLATION_DEFAULT, "true");
    assertFalse("isolated by default: YARN assigns the device", silentNodeTaskHasADevice(conf));
    conf = HareRm.conf();
    conf.set(YarnConfiguration.NM_RESOURCE_PLUGINS, ResourceInformation.GPU_URI);
    conf.set(YarnConfiguration.NM_CONTAINER_EXECUTOR,
        "org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor");
    assertFalse("auto: the RM's yarn-site sets up NodeManagers with YARN's GPU isolation",
        silentNodeTaskHasADevice(conf));
    conf.set(SchedulerKeys.GPU_ISOLATION_DEFAULT, "false");
    assertTrue("the admin says not isolated", silentNodeTaskHasADevice(conf));
  }

  @Test(timeout = 300_000)
  public void anIsolatedNodeGetsNoDeviceTagNoStandbyAndNoPark() throws Exception {
    // b takes the GPU a's killed container freed, as priority dispatch gives it
    h = HareRm.start(HareRm.priorityDispatch(HareRm.standbysAhead(true)));
    nm = h.node(ISOLATED_HOST + ":1234", 2);
    isolate(ISOLATED_HOST);
    a = h.launch(h.submitHare("hare.rounds=2", "hare.tasks-per-round=2",
        "hare.standby=true"), nm);
    HareRm.askGpuTasks(a, 2);
    List<Container> aTasks = h.heartbeatAndPull(a, nm);
    assertEquals(2, aTasks.size());
    for (Container c : aTasks) {
      running(nm, a, c);
      assertTrue("YARN assigns the device; nor parkable: " + c.getAllocationTags(),
          c.getAllocationTags() == null || c.getAllocationTags().isEmpty());
    }
    assertEquals("each counted", 2, h.scheduler().hareMetrics().standbysSkippedIsolated());
    HareRm.askGpuTasks(a, 0);

    MockAM b = h.launch(h.submitHare("hare.rounds=1", "hare.tasks-per-round=1",
        "hare.standby=true"), nm);
    HareRm.askGpuTasks(b, 1);
    assertEquals("no standby for b", 0, h.heartbeatAndPull(b, nm).size());
    assertEquals(0, h.scheduler().standbys());

    // a's AM asks to park a container anyway: it is refused and killed, not parked
    Container first = aTasks.get(0);
    a.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(first.getVersion(),
        first.getId(), ContainerUpdateType.DECREASE_RESOURCE, HareRm.resource(1024, 1, 0),
        null)));
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals(0, h.scheduler().standbys());
    assertEquals(List.of(first.getId()), a.allocate(List.of(), List.of())
        .getCompletedContainersStatuses().stream().map(s -> s.getContainerId()).toList());
    assertEquals(3, h.scheduler().hareMetrics().standbysSkippedIsolated());
    h.finish(nm, first);
    List<Container> bTasks = h.heartbeatAndPull(b, nm);
    assertEquals("a new container, not a promotion", 1, bTasks.size());
    assertEquals(1, HareRm.gpus(bTasks.get(0)));
    assertFalse(device(bTasks.get(0)).isPresent());
  }
}
