package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The warm runner script under real bash, against a real {@link RunnerServer}. */
public class TaskRunnerScriptTest {

  private static final String CONTAINER = "container_1700000000000_0007_01_000004";

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  /** Runs the runner of {@code task} with the server's address (or none); its exit status. */
  private int run(String task, RunnerServer server, String secret) throws Exception {
    return exitStatus(start(task, server, secret, false));
  }

  /** Starts the runner of {@code task}, a standby's if {@code standby}. */
  private Process start(String task, RunnerServer server, String secret, boolean standby)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", TaskRunnerScript.of(task));
    Map<String, String> env = new HashMap<>(Map.of("CONTAINER_ID", CONTAINER, "HARE_ROUND", "0",
        "HARE_TASK_INDEX", "0"));
    if (standby) {
      env.remove("HARE_TASK_INDEX"); // as TaskEnv.forStandby leaves it
      env.put(TaskRunnerScript.STANDBY, "1");
    }
    if (server != null) {
      env.putAll(Map.of("HARE_RUNNER_HOST", "127.0.0.1", "HARE_RUNNER_PORT",
          Integer.toString(server.port()), "HARE_RUNNER_SECRET", secret));
    }
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    return pb.start();
  }

  private static int exitStatus(Process p) throws Exception {
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  private Path log() {
    return tmp.getRoot().toPath().resolve("ran.txt");
  }

  private String task() {
    return "echo \"$HARE_ROUND/$HARE_TASK_INDEX\" >> '" + log() + "'; [ \"$HARE_TASK_INDEX\" != 2 ]";
  }

  @Test(timeout = 30_000)
  public void runsEachTaskTheAmHandsOutAndReportsEveryExitCode() throws Exception {
    List<String> reports = Collections.synchronizedList(new ArrayList<>());
    List<Optional<RunnerServer.Next>> answers = new ArrayList<>(List.of(
        Optional.of(new RunnerServer.Next(0, 1)), Optional.of(new RunnerServer.Next(0, 2)),
        Optional.empty()));
    try (RunnerServer s = new RunnerServer((ContainerId c, int code) -> {
      reports.add(c + " " + code);
      return answers.remove(0);
    })) {
      assertEquals("told to exit: 0", 0, run(task(), s, s.secret()));
    }
    assertEquals(List.of("0/0", "0/1", "0/2"), Files.readAllLines(log()));
    // task 2 exits 1 (the script's test): reported, and the AM decides
    assertEquals(List.of(CONTAINER + " 0", CONTAINER + " 0", CONTAINER + " 1"), reports);
  }

  @Test(timeout = 30_000)
  public void withoutARunnerServerTheContainerRunsOneTaskAndEndsWithItsStatus() throws Exception {
    assertEquals(0, run(task(), null, ""));
    assertEquals(List.of("0/0"), Files.readAllLines(log()));
    assertEquals(7, run("exit 7", null, ""));
  }

  @Test(timeout = 30_000)
  public void aWrongSecretIsRefusedAndTheFirstTasksStatusStands() throws Exception {
    List<String> reports = Collections.synchronizedList(new ArrayList<>());
    try (RunnerServer s = new RunnerServer((c, code) -> {
      reports.add(c + " " + code);
      return Optional.of(new RunnerServer.Next(0, 1));
    })) {
      assertEquals("the server closed on it: the result could not be delivered",
          TaskRunnerScript.LOST, run(task(), s, "not-the-secret"));
    }
    assertEquals(List.of("0/0"), Files.readAllLines(log()));
    assertEquals(List.of(), reports);
  }

  /** A handler whose standby runners wait until the test answers them. */
  private static class TestingStandbys implements RunnerServer.Handler {
    final List<String> reports = Collections.synchronizedList(new ArrayList<>());
    final BlockingQueue<CompletableFuture<Optional<RunnerServer.Next>>> waiting =
        new LinkedBlockingQueue<>();

    @Override
    public Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
      reports.add(c + " " + code);
      return Optional.empty();
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

  @Test(timeout = 30_000)
  public void aStandbyRunsNothingUntilTheAmHandsItATask() throws Exception {
    TestingStandbys h = new TestingStandbys();
    String task = "echo \"$HARE_ROUND/$HARE_TASK_INDEX/${HARE_STANDBY:-}\" >> '" + log() + "'";
    try (RunnerServer s = new RunnerServer(h)) {
      Process p = start(task, s, s.secret(), true);
      CompletableFuture<Optional<RunnerServer.Next>> ready = h.nextReady();
      assertFalse("said hello (the server checked it), then ready, having run nothing",
          Files.exists(log()));
      ready.complete(Optional.of(new RunnerServer.Next(2, 1))); // the scheduler gave it the GPU
      assertEquals("told to exit after its task: 0", 0, exitStatus(p));
    }
    assertEquals("the task from the run line, without the standby flag", List.of("2/1/"),
        Files.readAllLines(log()));
    assertEquals(List.of(CONTAINER + " ready", CONTAINER + " 0"), h.reports);
  }

  @Test(timeout = 30_000)
  public void aPromotedStandbysTaskSeesTheDeviceOnItsRunLine() throws Exception {
    TestingStandbys h = new TestingStandbys();
    String task = "echo \"$HARE_TASK_INDEX/${HARE_GPU_DEVICE:-}/${CUDA_VISIBLE_DEVICES:-}\" >> '"
        + log() + "'";
    try (RunnerServer s = new RunnerServer(h)) {
      Process p = start(task, s, s.secret(), true);
      h.nextReady().complete(Optional.of(new RunnerServer.Next(2, 1, 3)));
      assertEquals(0, exitStatus(p));
    }
    assertEquals(List.of("1/3/3"), Files.readAllLines(log()));
  }

  @Test(timeout = 30_000)
  public void aRunnerToldToParkSaysReadyAndRunsTheTaskItIsLaterHanded() throws Exception {
    TestingStandbys h = new TestingStandbys() {
      @Override
      public Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
        reports.add(c + " " + code);
        return reports.size() == 1 ? Optional.of(RunnerServer.Next.PARK) : Optional.empty();
      }
    };
    try (RunnerServer s = new RunnerServer(h)) {
      Process p = start(task(), s, s.secret(), false);
      CompletableFuture<Optional<RunnerServer.Next>> parked = h.nextReady();
      assertEquals("only its first task ran", List.of("0/0"), Files.readAllLines(log()));
      parked.complete(Optional.of(new RunnerServer.Next(1, 3))); // the next round's task
      assertEquals(0, exitStatus(p));
    }
    assertEquals(List.of("0/0", "1/3"), Files.readAllLines(log()));
    assertEquals(List.of(CONTAINER + " 0", CONTAINER + " ready", CONTAINER + " 0"), h.reports);
  }

  @Test(timeout = 30_000)
  public void aStandbyGivenUpOrWithoutARunnerServerExits0HavingRunNothing() throws Exception {
    TestingStandbys h = new TestingStandbys();
    try (RunnerServer s = new RunnerServer(h)) {
      Process p = start(task(), s, s.secret(), true);
      h.nextReady().complete(Optional.empty());
      assertEquals(0, exitStatus(p));
    }
    assertEquals(0, exitStatus(start(task(), null, "", true)));
    assertFalse(Files.exists(log()));
    assertEquals(List.of(CONTAINER + " ready"), h.reports);
  }

  @Test(timeout = 30_000)
  public void aReadyRunnerGetsItsTaskWhenTheAmHasOneAndItsFutureEndsWithTheConnection()
      throws Exception {
    TestingStandbys h = new TestingStandbys();
    try (RunnerServer s = new RunnerServer(h)) {
      try (Socket runner = new Socket("127.0.0.1", s.port())) {
        BufferedReader in = new BufferedReader(new InputStreamReader(runner.getInputStream(),
            StandardCharsets.US_ASCII));
        Writer out = new OutputStreamWriter(runner.getOutputStream(), StandardCharsets.US_ASCII);
        out.write("hello " + CONTAINER + " " + s.secret() + "\nready\n");
        out.flush();
        h.nextReady().complete(Optional.of(new RunnerServer.Next(3, 1)));
        assertEquals("run 3 1", in.readLine());
        out.write("done 0\n");
        out.flush();
        assertEquals("the normal loop after the first task", "exit", in.readLine());
      }
      CompletableFuture<Optional<RunnerServer.Next>> gone;
      try (Socket runner = new Socket("127.0.0.1", s.port())) {
        runner.getOutputStream().write(("hello " + CONTAINER + " " + s.secret() + "\nready\n")
            .getBytes(StandardCharsets.US_ASCII));
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
