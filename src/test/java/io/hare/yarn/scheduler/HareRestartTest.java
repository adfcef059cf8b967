package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.MemoryRMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Work-preserving RM restart with a {@link MemoryRMStateStore}, as Hadoop's
 * TestWorkPreservingRMRestart does it: the GPU task containers an NM reports at re-registration
 * survive, their GPUs stay busy for Hare and for YARN (nothing is over-committed), the policy
 * knows them as running tasks of their job, and asks sent after the restart are placed.
 */
public class HareRestartTest {

  private HareRm before;
  private MockRM after;

  /** One-time loading outside the tests' timeouts. */
  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    if (after != null) {
      after.stop();
    }
    if (before != null) {
      before.close();
    }
  }

  private static YarnConfiguration conf() {
    YarnConfiguration conf = HareRm.conf();
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
    conf.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
    conf.set(YarnConfiguration.RM_STORE, MemoryRMStateStore.class.getName());
    conf.setLong(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, 0);
    return conf;
  }

  private static NMContainerStatus running(Container c) {
    return NMContainerStatus.newInstance(c.getId(), 0, ContainerState.RUNNING, c.getResource(),
        "", 0, Priority.newInstance(1), 0);
  }

  @Test(timeout = 300_000)
  public void runningGpuTasksSurviveAndNewAsksArePlaced() throws Exception {
    YarnConfiguration conf = conf();
    before = HareRm.start(conf);
    MockNM nm = before.node("h1:1234", 2);
    RMApp app = before.submit("hare.rounds=2", "hare.tasks-per-round=3",
        "hare.weight=3");
    MockAM am = before.launch(app, nm);
    HareRm.askGpuTasks(am, 3);
    List<Container> tasks = before.heartbeatAndPull(am, nm);
    assertEquals("2 GPUs: 2 of the 3 tasks run", 2, tasks.size());
    Container amContainer = app.getCurrentAppAttempt().getMasterContainer();
    MemoryRMStateStore store = (MemoryRMStateStore) before.rm.getRMStateStore();

    ResourceUtils.resetResourceTypes(conf);
    HareScheduler s = restart(new MockRM(conf, store), nm, amContainer, tasks);

    for (Container c : tasks) {
      assertNotNull("recovered " + c.getId(), s.getRMContainer(c.getId()));
    }
    NodeId id = nm.getNodeId();
    SchedulerNode node = s.getSchedulerNode(id);
    assertEquals("YARN counts both GPUs used", 2, gpus(node.getAllocatedResource()));
    assertEquals("Hare counts both GPU tasks", 2, s.runningGpuTasks());
    assertEquals("the job's running tasks are known to the policy", 2,
        s.runningTasks(app.getApplicationId()));
    // the weight is re-read from the recovered application's tags; MockRM's memory store keeps
    // a submission context without tags (checked: the stored context's tag list is empty), so
    // here that is the untagged weight
    RMApp recovered = after.getRMContext().getRMApps().get(app.getApplicationId());
    assertEquals(JobTags.parse(recovered.getApplicationTags()).weight(),
        s.weight(app.getApplicationId()), 1e-9);

    // the AM re-registers and re-sends its outstanding ask; no GPU is free yet
    am.setAMRMProtocol(after.getApplicationMasterService(), after.getRMContext());
    am.registerAppAttempt(true);
    after.waitForState(am.getApplicationAttemptId(), RMAppAttemptState.RUNNING);
    HareRm.askGpuTasks(am, 1);
    assertEquals("both GPUs still run the recovered tasks", 0, pull(am, nm).size());
    assertEquals(2, gpus(node.getAllocatedResource()));

    // a recovered task ends: its GPU takes the waiting task
    nm.nodeHeartbeat(List.of(BuilderUtils.newContainerStatus(
        tasks.get(0).getId(), ContainerState.COMPLETE, "done", 0, tasks.get(0).getResource())),
        true);
    after.drainEvents();
    List<Container> placed = pull(am, nm);
    assertEquals("the ask sent after the restart is placed", 1, placed.size());
    assertEquals(id, placed.get(0).getNodeId());
    assertEquals(2, gpus(node.getAllocatedResource()));
    assertTrue(gpus(node.getAllocatedResource())
        <= gpus(node.getTotalResource()));
    assertEquals(2, s.runningTasks(app.getApplicationId()));
  }

  /**
   * Without the AM's progress a recovered job counts its finished tasks from nothing, and a
   * policy that ranks by work left ranks it as if it were starting; the progress a Hare AM
   * reports (rounds done / R) restores them.
   */
  @Test(timeout = 300_000)
  public void aRecoveredJobTakesTheRoundsItsAmReportsDone() throws Exception {
    // a store on files, as a cluster's: MockRM's memory store keeps no application tags, and
    // a recovered job's R and k come from them
    YarnConfiguration conf = conf();
    conf.set(YarnConfiguration.RM_STORE, FileSystemRMStateStore.class.getName());
    conf.set(YarnConfiguration.FS_RM_STATE_STORE_URI,
        GenericTestUtils.getRandomizedTestDir().toURI().toString());
    before = HareRm.start(conf);
    MockNM nm = before.node("h1:1234", 2);
    RMApp app = before.submitHare("hare.rounds=4", "hare.tasks-per-round=2");
    MockAM am = before.launch(app, nm);
    for (int round = 0; round < 2; round++) { // two rounds run and end
      HareRm.askGpuTasks(am, 2);
      List<Container> tasks = before.heartbeatAndPull(am, nm);
      assertEquals(2, tasks.size());
      for (Container c : tasks) {
        before.finish(nm, c);
      }
    }
    HareRm.askGpuTasks(am, 2);
    List<Container> third = before.heartbeatAndPull(am, nm); // round 3 runs across the restart
    assertEquals(2, third.size());
    assertEquals(2, roundsDone(before.scheduler(), app));
    Container amContainer = app.getCurrentAppAttempt().getMasterContainer();

    ResourceUtils.resetResourceTypes(conf);
    HareScheduler s = restart(new MockRM(conf), nm, amContainer, third);
    am.setAMRMProtocol(after.getApplicationMasterService(), after.getRMContext());
    am.registerAppAttempt(true);
    after.waitForState(am.getApplicationAttemptId(), RMAppAttemptState.RUNNING);
    pull(am, nm);
    assertEquals("the restarted RM does not know the rounds before it", 0, roundsDone(s, app));

    // the AM's next heartbeat reports its progress, 2 of 4 rounds
    am.allocate(AllocateRequest.newInstance(0, 0.5f, List.of(), List.of(), null));
    after.drainEvents();
    pull(am, nm);
    assertEquals("the rounds the AM reports done", 2, roundsDone(s, app));
    for (Container c : third) { // round 3 ends: counted on top
      nm.nodeHeartbeat(List.of(BuilderUtils.newContainerStatus(c.getId(),
          ContainerState.COMPLETE, "done", 0, c.getResource())), true);
    }
    after.drainEvents();
    HareRm.askGpuTasks(am, 2);
    pull(am, nm);
    assertEquals(3, roundsDone(s, app));
  }

  /**
   * Starts {@code rm} as the restarted RM ({@link #after}), and {@code nm} registers with it
   * reporting the AM's container and {@code tasks} running; its scheduler.
   */
  private HareScheduler restart(MockRM rm, MockNM nm, Container amContainer,
      List<Container> tasks) throws Exception {
    after = rm;
    after.start();
    nm.setResourceTrackerService(after.getResourceTrackerService());
    List<NMContainerStatus> reports = new ArrayList<>();
    reports.add(running(amContainer));
    tasks.forEach(c -> reports.add(running(c)));
    nm.registerNode(reports, null);
    after.drainEvents();
    return (HareScheduler) after.getResourceScheduler();
  }

  private static int roundsDone(HareScheduler s, RMApp app) {
    return s.report().jobs().stream()
        .filter(j -> j.id().equals(app.getApplicationId().toString())).findFirst()
        .orElseThrow().roundsDone();
  }

  private static long gpus(Resource r) {
    return r.getResourceValue(HareRm.GPU);
  }

  private List<Container> pull(MockAM am, MockNM nm) throws Exception {
    nm.nodeHeartbeat(true);
    after.drainEvents();
    return new ArrayList<>(am.allocate(List.of(), List.of()).getAllocatedContainers());
  }
}
