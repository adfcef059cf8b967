package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.TaskTimes;
import io.hare.yarn.scheduler.times.FileTaskTimeStore;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The task-time store across an HA transition, as {@link HareHaTest} drives one: the scheduler of
 * the term that ends saves at its stop (the interval is an hour, so no other save comes), and the
 * next term's scheduler, made and started when the RM is active again, gives the recovered job the
 * times the first one measured; the first term's saver thread is gone.
 */
public class TaskTimeStoreHaTest {

  private static final StateChangeRequestInfo BY_USER =
      new StateChangeRequestInfo(HAServiceProtocol.RequestSource.REQUEST_BY_USER);

  private HareRm rm;

  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    if (rm != null) {
      rm.close();
    }
  }

  @Test(timeout = 300_000)
  public void theNextActiveTermTakesTheMeasuredTimesSavedAtTheLastOnesStop() throws Exception {
    File dir = GenericTestUtils.getRandomizedTestDir();
    Path profiles = dir.toPath().resolve("profiles.csv");
    Files.createDirectories(dir.toPath());
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\ncnn,generic,1000,0\n");
    YarnConfiguration conf = HareHaTest.haConf();
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
    conf.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
    conf.set(YarnConfiguration.RM_STORE, FileSystemRMStateStore.class.getName());
    conf.set(YarnConfiguration.FS_RM_STATE_STORE_URI, new File(dir, "rm").toURI().toString());
    conf.set(SchedulerKeys.PROFILES_FILE, profiles.toString());
    File store = new File(dir, "task-times");
    conf.set(SchedulerKeys.TASK_TIMES_STORE_URI, store.toURI().toString());
    conf.setLong(SchedulerKeys.TASK_TIMES_STORE_SAVE_INTERVAL_MS, 3600_000L);

    rm = HareRm.start(conf);
    rm.rm.getRMContext().getRMAdminService().transitionToActive(BY_USER);
    HareScheduler first = rm.scheduler();
    ControlledClock clock = rm.controlledClock();
    MockNM nm = rm.node("h1:1234", 2);
    RMApp app = rm.submitHare("hare.model=cnn", "hare.rounds=3", "hare.tasks-per-round=2");
    MockAM am = rm.launch(app, nm);
    HareRm.askGpuTasks(am, 2);
    List<Container> tasks = rm.heartbeatUntil(am, 2, nm);
    clock.tickMsec(5000);
    for (Container c : tasks) {
      rm.finish(nm, c);
    }
    GpuType type = first.gpuType(nm.getNodeId());
    TaskTimes measured = first.taskTimes(app.getApplicationId(), type);
    assertNotEquals(new TaskTimes(1000, 0), measured);
    Path file = store.toPath().resolve(FileTaskTimeStore.FILE);
    assertTrue("nothing saved before the stop", !Files.exists(file));

    rm.rm.getRMContext().getRMAdminService().transitionToStandby(BY_USER);
    assertTrue("saved at the stop", Files.readString(file).contains(
        app.getApplicationId().toString()));
    rm.rm.getRMContext().getRMAdminService().transitionToActive(BY_USER);
    HareScheduler second = rm.scheduler();
    // the job has its profile's times until the saver's thread loaded the store
    GenericTestUtils.waitFor(() -> {
      TaskTimes now = second.taskTimes(app.getApplicationId(), type);
      return now != null && !now.equals(new TaskTimes(1000, 0));
    }, 10, 60_000);
    assertEquals(measured, second.taskTimes(app.getApplicationId(), type));
    assertEquals("one saver thread: the stopped term's ended", 1, saverThreads());
  }

  private static long saverThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals("hare-task-times")).count();
  }
}
