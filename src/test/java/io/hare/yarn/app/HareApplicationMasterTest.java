package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.junit.After;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The whole AM ({@link HareApplicationMaster#run} on its own thread) against scripted YARN
 * clients, with the real sync step ({@code true} as a local process) and the real file
 * checkpoint in a temp work dir. The test plays the ResourceManager and NodeManagers.
 */
public class HareApplicationMasterTest {

  private static final String JOB = TestingAm.ATTEMPT.getApplicationId().toString();

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private final BlockingQueue<String> calls = new LinkedBlockingQueue<>();
  private final ExecutorService amThread = Executors.newSingleThreadExecutor();
  private final ExecutorService syncThread = Executors.newSingleThreadExecutor();
  private volatile TestingAMRMClientAsync rm;
  private volatile TestingNMClientAsync nm;
  private long nextContainer = 1;
  private volatile Configuration amConf;
  private File work;
  private File logs;

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  @Before
  public void dirs() throws IOException {
    work = tmp.newFolder("work");
    logs = tmp.newFolder("logs");
  }

  @After
  public void stop() {
    amThread.shutdownNow();
    syncThread.shutdownNow();
  }

  @Test(timeout = 60_000)
  public void twoRoundsOfTwoTasksAskPerRoundAndWaitForTheSync() throws Exception {
    Future<Boolean> ok = start(2, 2, 1);
    expect("add", "add");
    allocate(1);
    expect("remove", "start 1");
    nm.started(container(1));
    complete(1, 0);
    assertNull("one task of two done: no sync, no ask", calls.poll());
    allocate(1);
    expect("remove", "start 2");
    assertEquals("0", env(2, "HARE_ROUND"));
    assertEquals("1", env(2, "HARE_TASK_INDEX"));
    complete(2, 0);
    // the barrier: round 1 asks only once round 0's sync ran and was checkpointed
    expect("add");
    assertTrue(new File(logs, "sync-round-0.log").exists());
    assertTrue(new File(work, "_hare/round-1.done").exists());
    expect("add");
    assertEquals(0.5f, rm.progress(), 0);
    allocate(2);
    expect("remove", "start 3", "remove", "start 4");
    assertEquals("1", env(4, "HARE_ROUND"));
    complete(3, 0);
    complete(4, 0);
    expect("unregister SUCCEEDED: ");
    assertTrue(ok.get(30, TimeUnit.SECONDS));
    assertEquals(1f, rm.progress(), 0);
  }

  /** An RM that fails under a heartbeat (restarting, say) must not fail the job for good. */
  @Test(timeout = 60_000)
  public void losingTheResourceManagerEndsTheAttemptWithoutUnregistering() throws Exception {
    Future<Boolean> ok = start(2, 1, 1);
    expect("add");
    rm.handler().onError(new IOException("ResourceManager restarting"));
    try {
      ok.get(30, TimeUnit.SECONDS);
      fail("the AM ended normally");
    } catch (java.util.concurrent.ExecutionException e) {
      assertTrue(e.getCause().toString(), e.getCause().getMessage().contains(
          "exiting without unregistering"));
      assertTrue("logged as YARN's decision, a WARN without a stack: " + e.getCause(),
          e.getCause() instanceof HareApplicationMaster.LostYarnException);
    }
    for (String c; (c = calls.poll()) != null; ) {
      assertTrue("unregistered: " + c, !c.startsWith("unregister"));
    }
  }

  @Test(timeout = 60_000)
  public void overAllocatedContainerIsReleased() throws Exception {
    Future<Boolean> ok = start(1, 2, 1);
    expect("add", "add");
    allocate(3);
    expect("remove", "start 1", "remove", "start 2", "release 3");
    complete(3, ContainerExitStatus.ABORTED); // how YARN reports a released one: no failure
    assertNull(calls.poll());
    complete(1, 0);
    complete(2, 0);
    expect("unregister SUCCEEDED: ");
    assertTrue(ok.get(30, TimeUnit.SECONDS));
  }

  @Test(timeout = 60_000)
  public void failedTaskIsAskedAgainAndTheJobSucceeds() throws Exception {
    Future<Boolean> ok = start(1, 2, 3);
    expect("add", "add");
    allocate(2);
    expect("remove", "start 1", "remove", "start 2");
    complete(1, 0);
    complete(2, 137);
    expect("add"); // task 1 only
    allocate(1);
    expect("remove", "start 3");
    assertEquals("1", env(3, "HARE_TASK_INDEX"));
    nm.startFailed(container(3), new IOException("NodeManager gone"));
    expect("release 3", "blacklist +node-a", "add"); // the node's fault: asked again elsewhere
    allocate(1);
    expect("remove", "start 4");
    assertEquals("1", env(4, "HARE_TASK_INDEX"));
    complete(4, 0);
    expect("unregister SUCCEEDED: ");
    assertTrue(ok.get(30, TimeUnit.SECONDS));
  }

  @Test(timeout = 60_000)
  public void taskFailingMaxAttemptsTimesFailsTheJobWithDiagnostics() throws Exception {
    Future<Boolean> ok = start(2, 2, 2);
    expect("add", "add");
    allocate(2);
    expect("remove", "start 1", "remove", "start 2");
    complete(1, 0);
    complete(2, 3);
    expect("add");
    allocate(1);
    expect("remove", "start 3");
    complete(3, 42);
    String last = next();
    assertTrue(last, last.startsWith("unregister FAILED: round 0 task 1 failed 2 times;"
        + " last attempt: exit code 42 on container " + container(3)));
    // where it stopped, for clients: YARN reports progress 1 for any ended job
    assertTrue(last, last.endsWith(" [hare: 0 of 2 rounds done; stopped in round 0 with 1 of 2"
        + " tasks done]"));
    assertFalse(ok.get(30, TimeUnit.SECONDS));
    assertFalse("no round was finished", new File(work, "_hare/round-1.done").exists());
  }

  @Test(timeout = 60_000)
  public void newAttemptResumesAfterTheCheckpointedRound() throws Exception {
    assertTrue(new File(work, "_hare").mkdir());
    assertTrue(new File(work, "_hare/round-1.done").createNewFile());
    Future<Boolean> ok = start(2, 2, 1);
    expect("add", "add");
    assertEquals(0.5f, rm.progress(), 0);
    allocate(2);
    expect("remove", "start 1", "remove", "start 2");
    assertEquals("1", env(1, "HARE_ROUND"));
    complete(1, 0);
    complete(2, 0);
    expect("unregister SUCCEEDED: ");
    assertTrue(ok.get(30, TimeUnit.SECONDS));
    assertFalse("round 0 did not run again", new File(logs, "sync-round-0.log").exists());
  }

  @Test(timeout = 60_000)
  public void nodeManagerConnectionsAreKeptUnlessTheJobSaysOtherwise() throws Exception {
    Future<Boolean> ok = start(1, 1, 1);
    assertEquals(HareApplicationMaster.CACHED_NM_CONNECTIONS,
        nm.getConfig().getInt(YarnConfiguration.NM_CLIENT_MAX_NM_PROXIES, -1));
    assertEquals("the AM's own configuration is not changed", 0,
        amConf.getInt(YarnConfiguration.NM_CLIENT_MAX_NM_PROXIES, 0));
    assertEquals("an unreachable NodeManager is given up on within 20 s, not 3 minutes",
        HareApplicationMaster.NM_CONNECT_WAIT_MS,
        nm.getConfig().getLong(YarnConfiguration.CLIENT_NM_CONNECT_MAX_WAIT_MS, -1));
    finishOneTaskJob(ok);
    org.apache.hadoop.fs.FileUtil.fullyDelete(new File(work, "_hare")); // a new job, not a resume
    Configuration own = new Configuration();
    own.setInt(YarnConfiguration.NM_CLIENT_MAX_NM_PROXIES, 3);
    ok = start(1, 1, 1, own);
    assertEquals(3, nm.getConfig().getInt(YarnConfiguration.NM_CLIENT_MAX_NM_PROXIES, -1));
    finishOneTaskJob(ok);
  }

  private void finishOneTaskJob(Future<Boolean> ok) throws Exception {
    expect("add");
    allocate(1);
    String remove = next();
    assertEquals("remove", remove);
    String started = next();
    assertTrue(started, started.startsWith("start "));
    complete(Long.parseLong(started.substring("start ".length())), 0);
    expect("unregister SUCCEEDED: ");
    assertTrue(ok.get(30, TimeUnit.SECONDS));
  }

  @Test(timeout = 60_000)
  public void aPromotedStandbyTellsItsNodeManagerAndItsRunnerTheTask() throws Exception {
    RunnerLink runners = new RunnerLink();
    Future<Boolean> ok = start(1, 1, 1, new Configuration(), runners);
    expect("add");
    Container standby = container(container(nextContainer++), 0); // no GPU, no ask (id 0)
    rm.handler().onContainersAllocated(List.of(standby));
    expect("start 1");
    assertEquals("1", env(1, "HARE_STANDBY"));
    assertChannelKeyOnlyInTokens(1);
    CompletableFuture<Optional<RunnerServer.Next>> answer = runners.standby(container(1));
    Container promoted = container(standby.getId(), 1);
    promoted.setAllocationRequestId(rm.asked.get(0));
    rm.handler().onContainersUpdated(List.of(
        UpdatedContainer.newInstance(ContainerUpdateType.INCREASE_RESOURCE, promoted)));
    expect("remove", "update 1");
    assertEquals(Optional.of(new RunnerServer.Next(0, 0)), answer.get(30, TimeUnit.SECONDS));
    assertEquals(Optional.empty(), runners.taskEnded(container(1), 0));
    expect("unregister SUCCEEDED: ");
    assertTrue(ok.get(30, TimeUnit.SECONDS));
  }

  private Future<Boolean> start(int rounds, int k, int attempts) throws Exception {
    return start(rounds, k, attempts, new Configuration());
  }

  private Future<Boolean> start(int rounds, int k, int attempts, Configuration conf)
      throws Exception {
    return start(rounds, k, attempts, conf, null);
  }

  /**
   * Runs the AM of a job with a {@code true} sync step; returns once it has registered.
   *
   * @param runners with task runners reporting there (a server the test plays), or null
   */
  private Future<Boolean> start(int rounds, int k, int attempts, Configuration conf,
      RunnerLink runners) throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.JOB_ROUNDS, Integer.toString(rounds));
    m.put(AppKeys.JOB_TASKS_PER_ROUND, Integer.toString(k));
    m.put(AppKeys.TASK_MAX_ATTEMPTS, Integer.toString(attempts));
    m.put(AppKeys.SYNC_COMMAND, "true");
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    AmClients clients = new AmClients() {
      @Override
      public AMRMClientAsync<ContainerRequest> resourceManager(
          AMRMClientAsync.AbstractCallbackHandler handler) {
        rm = new TestingAMRMClientAsync(handler, calls);
        return rm;
      }

      @Override
      public NMClientAsync nodeManagers(NMClientAsync.AbstractCallbackHandler handler) {
        nm = new TestingNMClientAsync(handler, calls);
        return nm;
      }
    };
    amConf = conf;
    TaskLaunch.Channel channel = runners == null ? null
        : new TaskLaunch.Channel("am", 1, new ChannelKeys());
    HareApplicationMaster am = new HareApplicationMaster(clients, conf, spec, JOB, work.getPath(),
        new TaskLaunch(spec, Map.of(), null, "", channel),
        new ProcessSyncStep(spec, JOB, work.getPath(), logs, syncThread),
        new FsRoundCheckpoint(FileSystem.getLocal(conf), new Path(work.toURI())),
        GpuTypes.UNKNOWN, runners, io.hare.yarn.app.tokens.TokenRefresher.NONE);
    Future<Boolean> ok = amThread.submit(am::run);
    expect("register");
    return ok;
  }

  private String next() throws InterruptedException {
    String call = calls.poll(30, TimeUnit.SECONDS);
    assertNotNull("the AM made no further call", call);
    return call;
  }

  private void expect(String... want) throws InterruptedException {
    for (String w : want) {
      assertEquals(w, next());
    }
  }

  private static ContainerId container(long n) {
    return ContainerId.newContainerId(TestingAm.ATTEMPT, n);
  }

  /** Container {@code id} on node-a with {@code gpus} GPUs. */
  private static Container container(ContainerId id, long gpus) {
    Resource r = Resource.newInstance(2048, 1);
    r.setResourceValue(ResourceInformation.GPU_URI, gpus);
    return Container.newInstance(id, NodeId.newInstance("node-a", 8041), "node-a:8042", r,
        TaskLaunch.PRIORITY, null);
  }

  /**
   * Container {@code n}'s launch context holds a task channel key in its tokens, and neither its
   * environment nor its command mention one.
   */
  private void assertChannelKeyOnlyInTokens(long n) throws IOException {
    ContainerLaunchContext ctx = nm.contexts.get(n);
    Credentials creds = new Credentials();
    ByteBuffer tokens = ctx.getTokens().duplicate();
    byte[] bytes = new byte[tokens.remaining()];
    tokens.get(bytes);
    creds.readTokenStorageStream(new DataInputStream(new ByteArrayInputStream(bytes)));
    String key = new String(creds.getSecretKey(new Text(ChannelKeys.ALIAS)),
        StandardCharsets.US_ASCII);
    assertTrue(key, key.matches(ChannelKeys.VALUE_PREFIX + "[0-9a-f]{64}"));
    String hex = key.substring(ChannelKeys.VALUE_PREFIX.length());
    String visible = ctx.getEnvironment() + " " + ctx.getCommands();
    assertFalse(visible, visible.contains(hex));
    assertEquals("am", ctx.getEnvironment().get(TaskLaunch.RUNNER_HOST));
  }

  private String env(long container, String name) {
    return nm.contexts.get(container).getEnvironment().get(name);
  }

  /** The ResourceManager hands out {@code n} new containers, each for an outstanding ask. */
  private void allocate(int n) {
    List<Container> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Container c = container(container(nextContainer++), 1);
      c.setAllocationRequestId(i < rm.asked.size() ? rm.asked.get(i) : 0);
      out.add(c);
    }
    rm.handler().onContainersAllocated(out);
  }

  private void complete(long n, int exit) {
    rm.handler().onContainersCompleted(List.of(ContainerStatus.newInstance(container(n),
        ContainerState.COMPLETE, exit == 0 ? "" : "exited " + exit, exit)));
  }
}
