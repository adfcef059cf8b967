package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The Python worker library ({@code dist/python/hare_worker}): its own unit tests, and a
 * resident worker ({@code python_worker.py} in the test resources) against a real {@link
 * RunnerServer}. CI installs python3; without it these tests fail.
 */
public class PythonWorkerTest {

  private static final String CONTAINER = "container_1700000000000_0007_01_000004";
  private static final ContainerId ID = ContainerId.fromString(CONTAINER);
  private static final Path WORKER = Path.of("src/test/resources/io/hare/yarn/app/python_worker.py")
      .toAbsolutePath();
  private static Path python;

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private final ChannelKeys keys = new ChannelKeys();

  @BeforeClass
  public static void findPython() {
    python = PythonWorkers.onPath().orElseThrow(() -> new AssertionError(
        "no python3 on PATH (" + System.getenv("PATH") + "): install Python 3.8 or later"));
  }

  private RunnerServer server(RunnerServer.Handler h) throws IOException {
    return new RunnerServer(h, keys, InetAddress.getLoopbackAddress());
  }

  /**
   * Starts the worker, a standby if {@code first} is null, else running {@code first} first; its
   * credentials hold the key {@code key} gives the container.
   */
  private Process start(RunnerServer server, ChannelKeys key, RunnerServer.Next first)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(python.toString(), WORKER.toString());
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("HARE_") || k.equals("CUDA_VISIBLE_DEVICES"));
    env.putAll(PythonWorkers.containerEnv(ID, server, key, tmp.getRoot().toPath()
        .resolve("container_tokens")));
    env.put("TEST_LOG", log().toString());
    if (first == null) {
      env.put(TaskRunnerScript.STANDBY, "1");
    } else {
      env.put("HARE_ROUND", Integer.toString(first.round()));
      env.put("HARE_TASK_INDEX", Integer.toString(first.index()));
    }
    pb.redirectErrorStream(true);
    pb.redirectOutput(tmp.getRoot().toPath().resolve("out.txt").toFile());
    return pb.start();
  }

  private String output() throws IOException {
    return Files.readString(tmp.getRoot().toPath().resolve("out.txt"));
  }

  private Path log() {
    return tmp.getRoot().toPath().resolve("ran.txt");
  }

  /** The tasks the worker ran, "ROUND/INDEX" each. */
  private List<String> ran() throws IOException {
    return field(0);
  }

  /** Field {@code i} of each line of the worker's log (fields "name=value" give the value). */
  private List<String> field(int i) throws IOException {
    return Files.readAllLines(log()).stream().map(l -> l.split(" ")[i])
        .map(f -> f.substring(f.indexOf('=') + 1)).collect(Collectors.toList());
  }

  @Test(timeout = 180_000)
  public void theLibrarysUnitTestsPass() throws Exception {
    Process p = new ProcessBuilder(python.toString(), "-m", "unittest", "discover", "-s",
        "dist/python/tests", "-t", "dist/python").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(out, 0, p.waitFor());
    assertTrue(out, out.contains("\nOK"));
  }

  @Test(timeout = 120_000)
  public void oneProcessRunsTaskAfterTaskAndKeepsItsState() throws Exception {
    ScriptedChannel h = new ScriptedChannel(new RunnerServer.Next(0, 0),
        new RunnerServer.Next(0, 1), new RunnerServer.Next(0, 2));
    Process p;
    try (RunnerServer s = server(h)) {
      p = start(s, keys, h.given);
      // told to exit, its last task's status: the scheduler reads 0 as a task computed
      assertEquals("told to exit after task 2\n" + output(), 2, p.waitFor());
    }
    assertEquals(List.of("0/0", "0/1", "0/2"), ran());
    assertEquals("one process", List.of(p.pid(), p.pid(), p.pid()),
        field(1).stream().map(Long::valueOf).collect(Collectors.toList()));
    assertEquals("its state kept", List.of("1", "2", "3"), field(2));
    assertEquals("and built once", List.of("1", "1", "1"), field(3));
    // each task's exit status (its index) is reported
    assertEquals(List.of("done 0 0 0", "done 0 1 1", "done 0 2 2"), h.reports);
    String key = HexFormat.of().formatHex(keys.keyOf(ID));
    assertFalse(output().contains(key));
  }

  @Test(timeout = 120_000)
  public void parkedItSaysReadyAndRunsTheTaskItIsLaterHanded() throws Exception {
    ScriptedChannel h = new ScriptedChannel(new RunnerServer.Next(0, 0),
        RunnerServer.Next.PARK);
    Process p;
    try (RunnerServer s = server(h)) {
      p = start(s, keys, h.given);
      CompletableFuture<Optional<RunnerServer.Next>> parked = h.nextReady();
      assertEquals("only its first task ran", List.of("0/0"), ran());
      h.hand(parked, new RunnerServer.Next(1, 3)); // the next round's task
      assertEquals("its last task's status\n" + output(), 3, p.waitFor());
    }
    assertEquals(List.of("0/0", "1/3"), ran());
    assertEquals(List.of(Long.toString(p.pid()), Long.toString(p.pid())), field(1));
    assertEquals(List.of("done 0 0 0", "ready", "done 1 3 3"), h.reports);
  }

  @Test(timeout = 120_000)
  public void aStandbyRunsNothingUntilHandedATaskWhichSeesItsDevice() throws Exception {
    ScriptedChannel h = new ScriptedChannel(null);
    try (RunnerServer s = server(h)) {
      Process p = start(s, keys, null);
      CompletableFuture<Optional<RunnerServer.Next>> ready = h.nextReady();
      assertFalse("proved its container and said ready, having run nothing",
          Files.exists(log()));
      h.hand(ready, new RunnerServer.Next(2, 1, 3)); // the scheduler gave it GPU 3 of its node
      assertEquals("told to exit after its task: that task's status\n" + output(), 1,
          p.waitFor());
    }
    assertEquals(List.of("2/1 device=3 cvd=3 standby="),
        Files.readAllLines(log()).stream().map(l -> l.replaceAll(" pid=.* device=", " device="))
            .collect(Collectors.toList()));
    assertEquals(List.of("ready", "done 2 1 1"), h.reports);
  }

  @Test(timeout = 120_000)
  public void aWrongKeyIsRefusedAndTheFirstTasksStatusIsTheProcesss() throws Exception {
    ScriptedChannel h = new ScriptedChannel(new RunnerServer.Next(0, 7),
        new RunnerServer.Next(0, 8));
    ChannelKeys other = new ChannelKeys();
    try (RunnerServer s = server(h)) {
      assertEquals("the container's end carries the result", 7,
          start(s, other, h.given).waitFor());
    }
    assertEquals(List.of("0/7"), ran());
    assertTrue(output(), output().contains("the task channel refused this container (error auth"
        + " not the proof of " + CONTAINER + ")"));
    assertFalse(output().contains(HexFormat.of().formatHex(other.keyOf(ID))));
    assertEquals(List.of(), h.reports);
  }

  @Test(timeout = 120_000)
  public void aWorkerThatDiesMidTaskEndsItsConnectionAndFails() throws Exception {
    ScriptedChannel h = new ScriptedChannel(new RunnerServer.Next(0, 0),
        new RunnerServer.Next(0, 99));
    try (RunnerServer s = server(h)) {
      Process p = start(s, keys, h.given);
      assertEquals("the crash's status\n" + output(), 13, p.waitFor());
      // the AM learns of it as the connection's end: a failed attempt of task 99
      GenericTestUtils.waitFor(() -> s.connections() == 0, 20, 20_000);
    }
    assertEquals(List.of("0/0", "0/99"), ran());
    assertEquals("the tasks before it reported", List.of("done 0 0 0"), h.reports);
  }
}
