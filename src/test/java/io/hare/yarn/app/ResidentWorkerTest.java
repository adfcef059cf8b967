package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.worker.ResidentWorker;
import io.hare.worker.Task;
import io.hare.worker.TaskBody;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The Java resident worker ({@link ResidentWorker}) against the AM's real task channel server:
 * task after task in one process with its state kept, parking, standbys, a task that fails, a
 * lost AM, and a container whose credential is wrong.
 */
public class ResidentWorkerTest {

  private static final String CONTAINER = "container_1700000000000_0007_01_000004";
  private static final ContainerId ID = ContainerId.fromString(CONTAINER);

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private final ChannelKeys keys = new ChannelKeys();
  private final StringWriter err = new StringWriter();
  private RunnerServer server;

  @After
  public void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** The container's environment: its channel (when a server runs), key and first task. */
  private Map<String, String> env(ChannelKeys key, boolean standby) throws IOException {
    Map<String, String> env = new HashMap<>(Map.of("CONTAINER_ID", CONTAINER,
        "HARE_ROUND", "0", "HARE_TASK_INDEX", "0", "HARE_TASKS_PER_ROUND", "4"));
    if (standby) {
      env.remove("HARE_TASK_INDEX"); // as TaskEnv.forStandby leaves it
      env.put(ResidentWorker.STANDBY, "1");
    }
    if (server != null) {
      env.put(ResidentWorker.RUNNER_HOST, "127.0.0.1");
      env.put(ResidentWorker.RUNNER_PORT, Integer.toString(server.port()));
    }
    Path file = tmp.getRoot().toPath().resolve("container_tokens");
    env.put("HADOOP_TOKEN_FILE_LOCATION",
        ScriptedChannel.credentials(key, ID, file).toString());
    return env;
  }

  private ScriptedChannel serve(ScriptedChannel channel) throws IOException {
    server = new RunnerServer(channel, keys, InetAddress.getLoopbackAddress());
    return channel;
  }

  /** Runs a worker of {@code body} on its own thread, as its container's process would. */
  private CompletableFuture<Integer> start(Map<String, String> env, TaskBody body) {
    return CompletableFuture.supplyAsync(
        () -> new ResidentWorker(env::get, new PrintWriter(err, true)).run(body));
  }

  /** A body that records each task and how many it ran before, in one object's state. */
  private static final class Counting implements TaskBody {
    final List<String> ran = Collections.synchronizedList(new ArrayList<>());
    int before;

    @Override
    public int run(Task t) {
      ran.add(t.round() + "/" + t.index() + "/" + t.device().orElse(-1) + " after " + before++);
      return t.index() == 2 ? 9 : 0;
    }
  }

  private static int exitOf(CompletableFuture<Integer> worker) throws Exception {
    return worker.get(60, TimeUnit.SECONDS);
  }

  @Test(timeout = 120_000)
  public void runsTaskAfterTaskInOneProcessKeepingItsStateUntilToldToExit() throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 0))
        .then(new RunnerServer.Next(0, 1)).then(new RunnerServer.Next(0, 2, 5))
        .then(new RunnerServer.Next(0, 3)));
    Counting body = new Counting();
    assertEquals("told to exit: 0", 0, exitOf(start(env(keys, false), body)));
    assertEquals(List.of("0/0/-1 after 0", "0/1/-1 after 1", "0/2/5 after 2", "0/3/-1 after 3"),
        body.ran);
    assertEquals("every exit code reported, for the task it belongs to",
        List.of("done 0 0 0", "done 0 1 0", "done 0 2 9", "done 0 3 0"), ch.reports);
  }

  /**
   * YARN's scheduler reads a container that ends with 0 as a task computed: told to exit after a
   * task that failed, the worker ends with that task's status, not 0.
   */
  @Test(timeout = 120_000)
  public void toldToExitAfterAFailedTaskTheWorkerEndsWithThatTasksStatus() throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 0))
        .then(new RunnerServer.Next(0, 2)));
    Counting body = new Counting();
    assertEquals(9, exitOf(start(env(keys, false), body)));
    assertEquals(List.of("done 0 0 0", "done 0 2 9"), ch.reports);
  }

  /** A result no exit status can carry (System.exit(256) ends a process with 0) counts as 1. */
  @Test(timeout = 120_000)
  public void aTaskResultOutsideExitStatusesCountsAs1() throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 0)));
    assertEquals(1, exitOf(start(env(keys, false), t -> 256)));
    assertEquals(List.of("done 0 0 1"), ch.reports);
    assertTrue(err.toString(), err.toString().contains(
        "round 0 task 0 returned 256, not an exit status 0-255: it counts as 1"));
  }

  @Test(timeout = 120_000)
  public void aParkedWorkerSaysReadyAndRunsTheNextRoundsTaskWithItsStateKept() throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 0))
        .then(RunnerServer.Next.PARK));
    Counting body = new Counting();
    CompletableFuture<Integer> worker = start(env(keys, false), body);
    ch.answerReady(Optional.of(new RunnerServer.Next(1, 3))); // the next round, after its sync
    assertEquals(0, exitOf(worker));
    assertEquals(List.of("0/0/-1 after 0", "1/3/-1 after 1"), body.ran);
    assertEquals(List.of("done 0 0 0", "ready", "done 1 3 0"), ch.reports);
  }

  @Test(timeout = 120_000)
  public void aStandbyRunsNothingUntilHandedATaskAndExits0WhenGivenUp() throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(null));
    Counting body = new Counting();
    CompletableFuture<Integer> worker = start(env(keys, true), body);
    ch.answerReady(Optional.of(new RunnerServer.Next(2, 1, 3)));
    assertEquals(0, exitOf(worker));
    assertEquals("the task of its run line, on the device named there",
        List.of("2/1/3 after 0"), body.ran);

    Counting idle = new Counting();
    CompletableFuture<Integer> given = start(env(keys, true), idle);
    ch.answerReady(Optional.empty());
    assertEquals(0, exitOf(given));
    assertEquals(List.of(), idle.ran);
  }

  @Test(timeout = 120_000)
  public void aTaskThatThrowsIsReportedAsExitCode1AndTheWorkerTakesItsNextTask()
      throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 0))
        .then(new RunnerServer.Next(0, 1)));
    List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
    assertEquals(0, exitOf(start(env(keys, false), t -> {
      ran.add(t.index());
      if (t.index() == 0) {
        throw new IllegalStateException("out of data");
      }
      return 0;
    })));
    assertEquals(List.of(0, 1), ran);
    assertEquals(List.of("done 0 0 1", "done 0 1 0"), ch.reports);
    assertTrue(err.toString(), err.toString().contains("round 0 task 0 failed:"
        + " java.lang.IllegalStateException: out of data"));
  }

  @Test(timeout = 120_000)
  public void aWorkerThatLosesItsAmExits75SoTheAmRunsTheTaskAgain() throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 0))
        .then(RunnerServer.Next.PARK));
    CompletableFuture<Integer> worker = start(env(keys, false), t -> 0);
    GenericTestUtils.waitFor(() -> ch.reports.contains("ready"), 20, 60_000);
    server.close(); // the AM is gone while the worker waits
    assertEquals(ResidentWorker.LOST, exitOf(worker));
  }

  @Test(timeout = 120_000)
  public void aWrongCredentialIsRefusedAndTheWorkerRunsItsOneTaskAsAProcessWould()
      throws Exception {
    ScriptedChannel ch = serve(new ScriptedChannel(new RunnerServer.Next(0, 2)));
    Map<String, String> env = env(new ChannelKeys(), false); // another AM's secret
    env.put("HARE_TASK_INDEX", "2");
    Counting body = new Counting();
    assertEquals("the first task's own exit code", 9, exitOf(start(env, body)));
    assertEquals(List.of("0/2/-1 after 0"), body.ran);
    assertEquals("nothing reported over the channel", List.of(), ch.reports);
    assertTrue(err.toString(), err.toString().contains("refused this container (error auth"));
    assertTrue("the key is in no message", !err.toString().contains(ChannelKeys.VALUE_PREFIX));

    Counting standby = new Counting();
    assertEquals("a refused standby ran nothing", 0,
        exitOf(start(env(new ChannelKeys(), true), standby)));
    assertEquals(List.of(), standby.ran);
  }

  @Test(timeout = 120_000)
  public void withoutAChannelOrAFirstTaskTheWorkerSaysWhy() throws Exception {
    Counting body = new Counting();
    assertEquals("no channel: one task, its exit code", 0, exitOf(start(env(keys, false),
        body)));
    assertEquals(List.of("0/0/-1 after 0"), body.ran);
    Map<String, String> env = env(keys, false);
    env.put("HARE_TASK_INDEX", "x");
    assertEquals(ResidentWorker.BAD_INPUT, exitOf(start(env, body)));
    assertTrue(err.toString(), err.toString().contains("HARE_TASK_INDEX ('x')"));
  }
}
