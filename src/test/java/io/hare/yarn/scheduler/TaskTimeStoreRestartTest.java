package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.TaskTimes;
import io.hare.yarn.scheduler.times.FileTaskTimeStore;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A job's measured task times across a work-preserving RM restart: with the task-time store on,
 * the new RM estimates the job's tasks as the old one had measured them; without it, back to the
 * profile. The old RM is not stopped (as in a crash): what the new one reads is what the old one's
 * saver thread wrote while it ran.
 */
public class TaskTimeStoreRestartTest {

  private static final double PROFILE_MS = 1000;
  private static final long RUN_MS = 5000;

  private HareRm before;
  private MockRM after;

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

  /** Work-preserving recovery from files (which keep the jobs' tags: their model). */
  private static YarnConfiguration conf(File storeDir) throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
    conf.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
    conf.setLong(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, 0);
    conf.set(YarnConfiguration.RM_STORE, FileSystemRMStateStore.class.getName());
    File dir = GenericTestUtils.getRandomizedTestDir();
    conf.set(YarnConfiguration.FS_RM_STATE_STORE_URI, new File(dir, "rm").toURI().toString());
    Path profiles = dir.toPath().resolve("profiles.csv");
    Files.createDirectories(dir.toPath());
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\ncnn,generic,"
        + (long) PROFILE_MS + ",0\n");
    conf.set(SchedulerKeys.PROFILES_FILE, profiles.toString());
    if (storeDir != null) {
      conf.set(SchedulerKeys.TASK_TIMES_STORE_URI, storeDir.toURI().toString());
      conf.setLong(SchedulerKeys.TASK_TIMES_STORE_SAVE_INTERVAL_MS, 20);
    }
    return conf;
  }

  @Test(timeout = 300_000)
  public void withTheStoreAJobKeepsItsMeasuredTimesAcrossARestart() throws Exception {
    File store = new File(GenericTestUtils.getRandomizedTestDir(), "task-times");
    Restarted r = measureThenRestart(conf(store), true, () -> {
      // the old RM's saver wrote the job's measurement (a crash may come at any moment after)
      Path file = store.toPath().resolve(FileTaskTimeStore.FILE);
      GenericTestUtils.waitFor(() -> {
        try {
          return Files.exists(file) && Files.readString(file).contains("\tcnn\tgeneric\t");
        } catch (java.io.IOException e) {
          return false;
        }
      }, 10, 60_000);
    });
    assertEquals("measured: the profile worth 3 tasks and two of 5 s",
        (3 * PROFILE_MS + 2 * RUN_MS) / 5, r.measured().computeMs(), 1e-9);
    assertEquals("the new RM's estimate is the old one's, exactly", r.measured(), r.restored());
  }

  @Test(timeout = 300_000)
  public void withoutTheStoreAJobIsBackToItsProfile() throws Exception {
    Restarted r = measureThenRestart(conf(null), false, () -> { });
    assertNotEquals(PROFILE_MS, r.measured().computeMs(), 1e-9);
    assertEquals(new TaskTimes(PROFILE_MS, 0), r.restored());
  }

  private interface Step {
    void run() throws Exception;
  }

  /** The estimate before the restart and the new RM's for the same job and type. */
  private record Restarted(TaskTimes measured, TaskTimes restored) {}

  /**
   * A job of model cnn runs a round of two tasks of {@link #RUN_MS} each on the old RM, then its
   * next round runs across a restart; {@code beforeRestart} runs just before the new RM starts;
   * with {@code stored}, the new RM's estimate is read once its store's load changed it.
   */
  private Restarted measureThenRestart(YarnConfiguration conf, boolean stored,
      Step beforeRestart) throws Exception {
    before = HareRm.start(conf);
    ControlledClock clock = before.controlledClock();
    MockNM nm = before.node("h1:1234", 2);
    RMApp app = before.submitHare("hare.model=cnn", "hare.rounds=3", "hare.tasks-per-round=2");
    MockAM am = before.launch(app, nm);
    HareRm.askGpuTasks(am, 2);
    List<Container> first = before.heartbeatAndPull(am, nm);
    assertEquals(2, first.size());
    clock.tickMsec(RUN_MS);
    for (Container c : first) {
      before.finish(nm, c);
    }
    GpuType type = before.scheduler().gpuType(nm.getNodeId());
    TaskTimes measured = before.scheduler().taskTimes(app.getApplicationId(), type);
    HareRm.askGpuTasks(am, 2);
    List<Container> second = before.heartbeatAndPull(am, nm);
    assertEquals(2, second.size());
    Container amContainer = app.getCurrentAppAttempt().getMasterContainer();
    beforeRestart.run();

    ResourceUtils.resetResourceTypes(conf);
    after = new MockRM(conf);
    after.start();
    nm.setResourceTrackerService(after.getResourceTrackerService());
    List<NMContainerStatus> reports = new ArrayList<>();
    reports.add(running(amContainer));
    second.forEach(c -> reports.add(running(c)));
    nm.registerNode(reports, null);
    after.drainEvents();
    HareScheduler s = (HareScheduler) after.getResourceScheduler();
    assertEquals(type, s.gpuType(nm.getNodeId()));
    if (stored) {
      // the new RM loads the store on the saver's thread: until then the job has its profile
      TaskTimes profile = new TaskTimes(PROFILE_MS, 0);
      GenericTestUtils.waitFor(() -> {
        TaskTimes now = s.taskTimes(app.getApplicationId(), type);
        return now != null && !now.equals(profile);
      }, 10, 60_000);
    }
    return new Restarted(measured, s.taskTimes(app.getApplicationId(), type));
  }

  private static NMContainerStatus running(Container c) {
    return NMContainerStatus.newInstance(c.getId(), 0, ContainerState.RUNNING, c.getResource(),
        "", 0, Priority.newInstance(1), 0);
  }
}
