package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The warm runner script under real bash, against a real {@link RunnerServer}. */
public class TaskRunnerScriptTest {

  private static final String CONTAINER = "container_1700000000000_0007_01_000004";
  private static final ContainerId ID = ContainerId.fromString(CONTAINER);

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private final ChannelKeys keys = new ChannelKeys();

  private RunnerServer server(RunnerServer.Handler h) throws IOException {
    return new RunnerServer(h, keys, InetAddress.getLoopbackAddress());
  }

  /** Runs the runner of {@code task} with the server's address (or none); its exit status. */
  private int run(String task, RunnerServer server, ChannelKeys key) throws Exception {
    return exitStatus(start(task, server, key, false));
  }

  /**
   * Starts the runner of {@code task}, a standby's if {@code standby}, its credentials holding
   * the key {@code key} gives the container (none if null).
   */
  private Process start(String task, RunnerServer server, ChannelKeys key, boolean standby)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", TaskRunnerScript.of(task));
    Map<String, String> env = new HashMap<>(Map.of("CONTAINER_ID", CONTAINER, "HARE_ROUND", "0",
        "HARE_TASK_INDEX", "0"));
    if (standby) {
      env.remove("HARE_TASK_INDEX"); // as TaskEnv.forStandby leaves it
      env.put(TaskRunnerScript.STANDBY, "1");
    }
    if (server != null) {
      env.putAll(Map.of(TaskLaunch.RUNNER_HOST, "127.0.0.1", TaskLaunch.RUNNER_PORT,
          Integer.toString(server.port())));
    }
    if (key != null) {
      env.put("HADOOP_TOKEN_FILE_LOCATION", credentials(key).toString());
    }
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    pb.redirectOutput(tmp.getRoot().toPath().resolve("out.txt").toFile());
    return pb.start();
  }

  /** The container's credentials file as the NodeManager writes it from its launch context. */
  private Path credentials(ChannelKeys key) throws IOException {
    ByteBuffer b = key.tokens(ID, null);
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return Files.write(tmp.getRoot().toPath().resolve("container_tokens"), bytes);
  }

  private static int exitStatus(Process p) throws Exception {
    return p.waitFor();
  }

  private String output() throws IOException {
    return Files.readString(tmp.getRoot().toPath().resolve("out.txt"));
  }

  private Path log() {
    return tmp.getRoot().toPath().resolve("ran.txt");
  }

  private String task() {
    return "echo \"$HARE_ROUND/$HARE_TASK_INDEX\" >> '" + log() + "'; [ \"$HARE_TASK_INDEX\" != 2 ]";
  }

  /** Hands out scripted answers, checks reports against the task it gave, records them. */
  private static class TestingHandler implements RunnerServer.Handler {
    final List<String> reports = Collections.synchronizedList(new ArrayList<>());
    final List<Optional<RunnerServer.Next>> answers;
    volatile RunnerServer.Next given = new RunnerServer.Next(0, 0);

    TestingHandler(List<Optional<RunnerServer.Next>> answers) {
      this.answers = new ArrayList<>(answers);
    }

    @Override
    public Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
      reports.add(c + " " + code);
      Optional<RunnerServer.Next> next = answers.isEmpty() ? Optional.empty() : answers.remove(0);
      next.filter(n -> !n.parks()).ifPresent(n -> given = n);
      return next;
    }

    @Override
    public Optional<RunnerServer.Next> taskOf(ContainerId c) {
      return Optional.ofNullable(given);
    }
  }

  @Test(timeout = 120_000)
  public void runsEachTaskTheAmHandsOutAndReportsEveryExitCode() throws Exception {
    TestingHandler h = new TestingHandler(List.of(Optional.of(new RunnerServer.Next(0, 1)),
        Optional.of(new RunnerServer.Next(0, 2)), Optional.empty()));
    try (RunnerServer s = server(h)) {
      int status = run(task(), s, keys);
      // the scheduler reads a container's end with 0 as a task computed: not this last one
      assertEquals("told to exit after a failed task: its status\n" + output(), 1, status);
    }
    assertEquals(List.of("0/0", "0/1", "0/2"), Files.readAllLines(log()));
    // task 2 exits 1 (the script's test): reported, and the AM decides
    assertEquals(List.of(CONTAINER + " 0", CONTAINER + " 0", CONTAINER + " 1"), h.reports);
  }

  /** Told to exit, a runner ends with its last task's status, whatever failed before it. */
  @Test(timeout = 120_000)
  public void toldToExitAfterATaskThatSucceededTheRunnerEnds0() throws Exception {
    TestingHandler h = new TestingHandler(List.of(Optional.of(new RunnerServer.Next(0, 2)),
        Optional.of(new RunnerServer.Next(1, 1)), Optional.empty()));
    try (RunnerServer s = server(h)) {
      int status = run(task(), s, keys);
      assertEquals(output(), 0, status);
    }
    assertEquals(List.of("0/0", "0/2", "1/1"), Files.readAllLines(log()));
    assertEquals(List.of(CONTAINER + " 0", CONTAINER + " 1", CONTAINER + " 0"), h.reports);
  }

  @Test(timeout = 120_000)
  public void theRunnerProvesItsContainerWhileTheFirstTaskRunsAndNoTaskHoldsTheConnection()
      throws Exception {
    Path go = tmp.getRoot().toPath().resolve("go");
    // task 0 waits for the test; task 1 fails if it inherited the channel's descriptor
    String task = "if [ \"$HARE_TASK_INDEX\" = 0 ]; then while [ ! -e '" + go + "' ]; do"
        + " sleep 0.05; done; else [ ! -e /proc/$$/fd/3 ]; fi";
    TestingHandler h = new TestingHandler(List.of(Optional.of(new RunnerServer.Next(0, 1)),
        Optional.empty()));
    try (RunnerServer s = server(h)) {
      Process p = start(task, s, keys, false);
      GenericTestUtils.waitFor(() -> s.connections() == 1, 20, 20_000);
      assertEquals("connected, nothing reported while task 0 runs", List.of(), h.reports);
      Files.createFile(go);
      assertEquals(output(), 0, exitStatus(p));
    }
    assertEquals(List.of(CONTAINER + " 0", CONTAINER + " 0"), h.reports);
  }

  @Test(timeout = 120_000)
  public void theKeyIsInNoTasksEnvironment() throws Exception {
    Path env = tmp.getRoot().toPath().resolve("env.txt");
    TestingHandler h = new TestingHandler(List.of(Optional.of(new RunnerServer.Next(0, 1)),
        Optional.empty()));
    try (RunnerServer s = server(h)) {
      int status = run("set >> '" + env + "'; env >> '" + env + "'", s, keys);
      assertEquals(output(), 0, status);
    }
    assertEquals("both tasks ran", 2, h.reports.size());
    String seen = Files.readString(env);
    String key = HexFormat.of().formatHex(keys.keyOf(ID));
    assertFalse(seen.contains(key));
    assertFalse(seen.contains(ChannelKeys.VALUE_PREFIX));
  }

  @Test(timeout = 120_000)
  public void theRunnersHmacMatchesTheProtocolsTestVector() throws Exception {
    Process p = new ProcessBuilder("bash", "-c", TaskRunnerScript.hmac() + "hmac "
        + ChannelKeysTest.VECTOR_KEY + " '" + ChannelKeysTest.VECTOR_GREETING + " "
        + ChannelKeysTest.VECTOR_CONTAINER + "'").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertEquals(0, p.waitFor());
    assertEquals(ChannelKeysTest.VECTOR_PROOF, out);
  }

  @Test(timeout = 120_000)
  public void withoutARunnerServerTheContainerRunsOneTaskAndEndsWithItsStatus() throws Exception {
    assertEquals(0, run(task(), null, keys));
    assertEquals(List.of("0/0"), Files.readAllLines(log()));
    assertEquals(7, run("exit 7", null, keys));
  }

  @Test(timeout = 120_000)
  public void aWrongKeyIsRefusedAndTheFirstTasksStatusStands() throws Exception {
    TestingHandler h = new TestingHandler(List.of(Optional.of(new RunnerServer.Next(0, 1))));
    try (RunnerServer s = server(h)) {
      assertEquals("the container's end carries the result", 7, run("exit 7", s,
          new ChannelKeys()));
      assertTrue(output(), output().contains("the task channel refused this container (error"
          + " auth not the proof of " + CONTAINER + ")"));
      assertEquals(0, run(task(), s, new ChannelKeys()));
    }
    assertEquals(List.of("0/0"), Files.readAllLines(log()));
    assertEquals(List.of(), h.reports);
  }

  @Test(timeout = 120_000)
  public void withoutAKeyTheFirstTasksStatusStands() throws Exception {
    TestingHandler h = new TestingHandler(List.of(Optional.of(new RunnerServer.Next(0, 1))));
    try (RunnerServer s = server(h)) {
      assertEquals(7, run("exit 7", s, null));
      assertTrue(output(), output().contains("no task channel key"));
    }
    assertEquals(List.of(), h.reports);
  }

  @Test(timeout = 120_000)
  public void aReportTheAmRefusesLosesTheTask() throws Exception {
    TestingHandler h = new TestingHandler(List.of());
    h.given = new RunnerServer.Next(0, 3); // the AM thinks the container runs another task
    try (RunnerServer s = server(h)) {
      assertEquals(TaskRunnerScript.LOST, run(task(), s, keys));
      assertTrue(output(), output().contains("the task channel said: error task"));
    }
    assertEquals(List.of(), h.reports);
  }

  /** A handler whose standby runners wait until the test answers them. */
  private static class TestingStandbys extends TestingHandler {
    final BlockingQueue<CompletableFuture<Optional<RunnerServer.Next>>> waiting =
        new LinkedBlockingQueue<>();

    TestingStandbys() {
      super(List.of());
      given = null;
    }

    @Override
    public CompletableFuture<Optional<RunnerServer.Next>> standby(ContainerId c) {
      reports.add(c + " ready");
      CompletableFuture<Optional<RunnerServer.Next>> f = new CompletableFuture<>();
      waiting.add(f);
      return f;
    }

    CompletableFuture<Optional<RunnerServer.Next>> nextReady() throws InterruptedException {
      CompletableFuture<Optional<RunnerServer.Next>> f = waiting.poll(20, TimeUnit.SECONDS);
      assertNotNull("no runner said ready", f);
      return f;
    }
  }

  @Test(timeout = 120_000)
  public void aStandbyRunsNothingUntilTheAmHandsItATask() throws Exception {
    TestingStandbys h = new TestingStandbys();
    String task = "echo \"$HARE_ROUND/$HARE_TASK_INDEX/${HARE_STANDBY:-}\" >> '" + log() + "'";
    try (RunnerServer s = server(h)) {
      Process p = start(task, s, keys, true);
      CompletableFuture<Optional<RunnerServer.Next>> ready = h.nextReady();
      assertFalse("proved its container, then said ready, having run nothing",
          Files.exists(log()));
      h.given = new RunnerServer.Next(2, 1); // the scheduler gave it the GPU
      ready.complete(Optional.of(h.given));
      assertEquals("told to exit after its task: 0", 0, exitStatus(p));
    }
    assertEquals("the task from the run line, without the standby flag", List.of("2/1/"),
        Files.readAllLines(log()));
    assertEquals(List.of(CONTAINER + " ready", CONTAINER + " 0"), h.reports);
  }

  @Test(timeout = 120_000)
  public void aPromotedStandbysTaskSeesTheDeviceOnItsRunLine() throws Exception {
    TestingStandbys h = new TestingStandbys();
    String task = "echo \"$HARE_TASK_INDEX/${HARE_GPU_DEVICE:-}/${CUDA_VISIBLE_DEVICES:-}\" >> '"
        + log() + "'";
    try (RunnerServer s = server(h)) {
      Process p = start(task, s, keys, true);
      CompletableFuture<Optional<RunnerServer.Next>> ready = h.nextReady();
      h.given = new RunnerServer.Next(2, 1, 3); // the scheduler gave it GPU 3 of its node
      ready.complete(Optional.of(h.given));
      assertEquals(0, exitStatus(p));
    }
    assertEquals(List.of("1/3/3"), Files.readAllLines(log()));
  }

  @Test(timeout = 120_000)
  public void aRunnerToldToParkSaysReadyAndRunsTheTaskItIsLaterHanded() throws Exception {
    TestingStandbys h = new TestingStandbys() {
      @Override
      public Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
        reports.add(c + " " + code);
        return reports.size() == 1 ? Optional.of(RunnerServer.Next.PARK) : Optional.empty();
      }
    };
    h.given = new RunnerServer.Next(0, 0);
    try (RunnerServer s = server(h)) {
      Process p = start(task(), s, keys, false);
      CompletableFuture<Optional<RunnerServer.Next>> parked = h.nextReady();
      assertEquals("only its first task ran", List.of("0/0"), Files.readAllLines(log()));
      h.given = new RunnerServer.Next(1, 3); // the next round's task
      parked.complete(Optional.of(h.given));
      assertEquals(0, exitStatus(p));
    }
    assertEquals(List.of("0/0", "1/3"), Files.readAllLines(log()));
    assertEquals(List.of(CONTAINER + " 0", CONTAINER + " ready", CONTAINER + " 0"), h.reports);
  }

  @Test(timeout = 120_000)
  public void aStandbyGivenUpOrWithoutARunnerServerExits0HavingRunNothing() throws Exception {
    TestingStandbys h = new TestingStandbys();
    try (RunnerServer s = server(h)) {
      Process p = start(task(), s, keys, true);
      h.nextReady().complete(Optional.empty());
      assertEquals(0, exitStatus(p));
    }
    assertEquals(0, exitStatus(start(task(), null, keys, true)));
    assertFalse(Files.exists(log()));
    assertEquals(List.of(CONTAINER + " ready"), h.reports);
  }

  @Test(timeout = 120_000)
  public void aReadyRunnerGetsItsTaskWhenTheAmHasOneAndItsFutureEndsWithTheConnection()
      throws Exception {
    TestingStandbys h = new TestingStandbys();
    try (RunnerServer s = server(h)) {
      try (TestingRunner runner = new TestingRunner(s)) {
        assertEquals("ok", runner.hello(ID, keys.keyOf(ID)));
        runner.send("ready");
        h.given = new RunnerServer.Next(3, 1);
        h.nextReady().complete(Optional.of(h.given));
        assertEquals("run 3 1", runner.readLine());
        runner.send("done 3 1 0");
        assertEquals("the normal loop after the first task", "exit", runner.readLine());
      }
      CompletableFuture<Optional<RunnerServer.Next>> gone;
      try (TestingRunner runner = new TestingRunner(s)) {
        assertEquals("ok", runner.hello(ID, keys.keyOf(ID)));
        runner.send("ready");
        gone = h.nextReady();
      }
      // the server sees the connection end while it waits and gives the answer up
      try {
        gone.get(20, TimeUnit.SECONDS);
        fail("the standby's future outlived its connection");
      } catch (CancellationException expected) {
        // what the AM finds when it later promotes that container
      }
    }
    assertEquals(List.of(CONTAINER + " ready", CONTAINER + " 0", CONTAINER + " ready"),
        h.reports);
  }
}
