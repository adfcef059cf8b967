package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.Map;
import io.hare.core.ConfigException;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The real checkpoint on the local file system, the sync process, and the task launch context. */
public class AmPartsTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  @Test(timeout = 60_000)
  public void checkpointCountsFinishedRoundsAcrossInstances() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration(false));
    Path work = new Path(tmp.getRoot().toURI());
    assertEquals(0, new FsRoundCheckpoint(fs, work).roundsDone());
    new FsRoundCheckpoint(fs, work).save(1);
    new FsRoundCheckpoint(fs, work).save(2);
    // a new AM attempt sees the same directory
    assertEquals(2, new FsRoundCheckpoint(fs, work).roundsDone());
    assertTrue(new File(tmp.getRoot(), "_hare/round-2.done").isFile());
  }

  @Test(timeout = 60_000)
  public void syncProcessGetsTheRoundEnvironmentAndItsExitCode() throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.SYNC_COMMAND,
        "echo \"$HARE_ROUND/$HARE_TASKS_PER_ROUND/${HARE_TASK_INDEX:-none}/$EXTRA\"; exit 3");
    m.put(AppKeys.ENV_PREFIX + "EXTRA", "x");
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    ExecutorService ex = Executors.newSingleThreadExecutor();
    try {
      ProcessSyncStep step = new ProcessSyncStep(spec, "job", "/w", tmp.getRoot(), ex);
      BlockingQueue<Integer> codes = new ArrayBlockingQueue<>(1);
      step.start(5, codes::add);
      assertEquals(Integer.valueOf(3), codes.poll(20, TimeUnit.SECONDS));
      assertEquals("5/4/none/x\n", Files.readString(new File(step.logLocation(5)).toPath()));
    } finally {
      ex.shutdownNow();
    }
  }

  @Test(timeout = 60_000)
  public void tasksGetTheContainerClasspathUnlessTheSpecSetsOne() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("yarn.application.classpath", "/hadoop/conf, /hadoop/lib/*");
    String cp = ContainerClasspath.of(conf);
    assertEquals("{{PWD}}/*<CPS>/hadoop/conf<CPS>/hadoop/lib/*", cp);
    HareJobSpec plain = JobSpecValidator.read(JobSpecValidatorTest.conf(
        JobSpecValidatorTest.valid()));
    assertEquals(cp, new TaskLaunch(plain, Map.of(), null, cp).context(Map.of("HARE_ROUND", "0"))
        .getEnvironment().get("CLASSPATH"));
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.ENV_PREFIX + "CLASSPATH", "mine.jar");
    HareJobSpec own = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    assertEquals("mine.jar", new TaskLaunch(own, Map.of(), null, cp)
        .context(TaskEnv.forTask(own, "job", "/w", 0, 0, "t4")).getEnvironment().get("CLASSPATH"));
  }

  @Test(timeout = 60_000)
  public void taskCommandRunsUnderBashWithItsOutputInTheLogDirectory() throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.TASK_COMMAND, "echo 'it''s' && run");
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    TaskLaunch launch = new TaskLaunch(spec, Map.of(), null);
    ContainerLaunchContext ctx = launch.context(Map.of("HARE_ROUND", "0"));
    // quoted for bash -c, backslashes doubled for the launch script's double quotes
    assertEquals("bash -c 'echo '\\\\''it'\\\\'''\\\\''s'\\\\'' && run' 1><LOG_DIR>/stdout"
        + " 2><LOG_DIR>/stderr", ctx.getCommands().get(0));
    assertEquals(1, launch.request(1).getCapability().getResourceValue("yarn.io/gpu"));
    assertEquals(2048, launch.request(1).getCapability().getMemorySize());
    assertEquals("each task ask has its own id", 7, launch.request(7).getAllocationRequestId());
    Process p = new ProcessBuilder("bash", "-c", "echo " + TaskLaunch.quote("a'b \"$c\""))
        .start();
    assertEquals("a'b \"$c\"\n", new String(p.getInputStream().readAllBytes()));
  }

  @Test(timeout = 60_000)
  public void taskCommandSurvivesTheLaunchScriptsDoubleQuotes() throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.TASK_COMMAND, "x=\"$HARE_ROUND\"; echo \"r=$x `echo q` \\\\ 'it''s'\" $((1+1))");
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    String launched = new TaskLaunch(spec, Map.of(), null).context(Map.of()).getCommands().get(0)
        .replace("<LOG_DIR>", tmp.getRoot().getAbsolutePath());
    // what the NodeManager's launch_container.sh does with a container's command
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", "exec /bin/bash -c \"" + launched + "\"");
    pb.environment().put("HARE_ROUND", "7");
    assertEquals(0, pb.start().waitFor());
    assertEquals("r=7 q \\ 'it''s' 2\n",
        Files.readString(new File(tmp.getRoot(), "stdout").toPath()));
  }

  @Test(timeout = 60_000)
  public void aResidentWorkerIsTheContainersCommandAndPicksItsDevicePerTask() throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.TASK_COMMAND, "python3 train.py");
    m.put(AppKeys.TASK_MODE, "resident");
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    TaskLaunch launch = new TaskLaunch(spec, Map.of(), null, "",
        new TaskLaunch.Channel("am-host", 4242, new ChannelKeys()));
    Map<String, String> env = TaskEnv.withDevice(
        TaskEnv.forTask(spec, "job", "/w", 0, 1, "t4"), OptionalInt.of(3));
    ContainerLaunchContext ctx = launch.context(env);
    assertEquals("the worker itself, without the bash runner", "bash -c 'python3 train.py'"
        + " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr", ctx.getCommands().get(0));
    assertEquals("am-host", ctx.getEnvironment().get(TaskLaunch.RUNNER_HOST));
    assertEquals("4242", ctx.getEnvironment().get(TaskLaunch.RUNNER_PORT));
    assertEquals("3", ctx.getEnvironment().get("HARE_GPU_DEVICE"));
    assertFalse("a later task may run on another device of the node",
        ctx.getEnvironment().containsKey("CUDA_VISIBLE_DEVICES"));
    Map<String, String> standby = launch.standbyContext(TaskEnv.forStandby(spec, "job", "/w", 0,
        "t4", OptionalInt.of(2))).getEnvironment();
    assertEquals("1", standby.get(TaskRunnerScript.STANDBY));
    assertEquals("the GPU it was made for, a hint its worker may get ready on", "2",
        standby.get("HARE_STANDBY_DEVICE"));
    assertFalse("it holds no GPU yet", standby.containsKey("HARE_GPU_DEVICE"));
    assertFalse("a parked container has no hint", TaskEnv.forStandby(spec, "job", "/w", 0, "t4",
        OptionalInt.empty()).containsKey("HARE_STANDBY_DEVICE"));

    m.put(AppKeys.TASK_MODE, "process");
    ContainerLaunchContext process = new TaskLaunch(JobSpecValidator.read(
        JobSpecValidatorTest.conf(m)), Map.of(), null, "",
        new TaskLaunch.Channel("am-host", 4242, new ChannelKeys())).context(env);
    assertTrue("a task process runs under the bash runner",
        process.getCommands().get(0).contains("/dev/tcp/"));
    assertEquals("3", process.getEnvironment().get("CUDA_VISIBLE_DEVICES"));
  }

  @Test(timeout = 60_000)
  public void residentModeWithoutTaskReuseIsRefusedNamingBothKeys() {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.TASK_MODE, "resident");
    m.put(AppKeys.TASK_REUSE_ENABLED, "false");
    try {
      JobSpecValidator.read(JobSpecValidatorTest.conf(m));
      fail("resident needs the task channel");
    } catch (ConfigException e) {
      assertEquals(List.of("yarn.app.hare.task.mode: resident needs"
          + " yarn.app.hare.task.reuse.enabled=true (a resident worker takes its tasks over the"
          + " task channel), got false"), e.problems());
    }
  }

  @Test(timeout = 60_000)
  public void gpuTypeFromTheAdminAttributeFirst() {
    NodeAttribute nm = NodeAttribute.newInstance(NodeAttribute.PREFIX_DISTRIBUTED, "gpu-model",
        NodeAttributeType.STRING, "T4");
    NodeAttribute rm = NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED, "gpu-model",
        NodeAttributeType.STRING, "V100");
    NodeAttribute other = NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED, "rack",
        NodeAttributeType.STRING, "r1");
    assertEquals("t4", NodeAttributeGpuTypes.choose(Set.of(nm, other), "gpu-model"));
    assertEquals("v100", NodeAttributeGpuTypes.choose(Set.of(nm, rm), "gpu-model"));
    assertEquals("", NodeAttributeGpuTypes.choose(Set.of(other), "gpu-model"));
  }
}
