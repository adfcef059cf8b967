package io.hare.yarn.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import io.hare.example.SgdJob;
import io.hare.worker.ResidentWorker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The example job's resident worker ({@code SgdJob worker}) takes a whole job's tasks in one
 * process, parked at each round's barrier while the sync step runs, and trains the model of
 * plain sequential SGD byte for byte.
 */
public class SgdWorkerTest {

  private static final String CONTAINER = "container_1700000000000_0007_01_000004";

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static int sgd(Map<String, String> env, StringWriter out, String... args) {
    return SgdJob.commandLine(new PrintWriter(out, true), new PrintWriter(out, true),
        env::get).execute(args);
  }

  private static Map<String, String> env(Path dir, int round) {
    return new HashMap<>(Map.of("HARE_JOB_ID", "application_1700000000000_0007",
        "HARE_ROUND", Integer.toString(round), "HARE_TASKS_PER_ROUND", "3",
        "HARE_WORK_DIR", dir.toString(), "HARE_GPU_TYPE", "k80"));
  }

  @Test(timeout = 120_000)
  public void oneWorkerTrainsTheJobAndItsModelEqualsTheReferenceByteForByte() throws Exception {
    Path dir = tmp.newFolder("job").toPath();
    StringWriter log = new StringWriter();
    assertEquals(log.toString(), 0, sgd(Map.of(), log, "init", "--work-dir", dir.toString()));
    ChannelKeys keys = new ChannelKeys();
    ScriptedChannel ch = new ScriptedChannel(new RunnerServer.Next(0, 2))
        .then(new RunnerServer.Next(0, 0)).then(new RunnerServer.Next(0, 1))
        .then(RunnerServer.Next.PARK)
        .then(new RunnerServer.Next(1, 2, 1)).then(new RunnerServer.Next(1, 0))
        .then(RunnerServer.Next.PARK)
        .then(new RunnerServer.Next(2, 1)).then(new RunnerServer.Next(2, 2));
    Path events = dir.resolve("events");
    try (RunnerServer server = new RunnerServer(ch, keys, InetAddress.getLoopbackAddress())) {
      Map<String, String> env = env(dir, 0);
      env.putAll(Map.of("HARE_TASK_INDEX", "2", "CONTAINER_ID", CONTAINER,
          ResidentWorker.RUNNER_HOST, "127.0.0.1",
          ResidentWorker.RUNNER_PORT, Integer.toString(server.port()),
          "HADOOP_TOKEN_FILE_LOCATION", ScriptedChannel.credentials(keys,
              ContainerId.fromString(CONTAINER), dir.resolve("container_tokens")).toString()));
      StringWriter out = new StringWriter();
      CompletableFuture<Integer> worker = CompletableFuture.supplyAsync(() -> sgd(env, out,
          "worker", "--type-factors", "v100=1,k80=3", "--events", events.toString()));
      List<RunnerServer.Next> afterBarrier = List.of(new RunnerServer.Next(1, 1),
          new RunnerServer.Next(2, 0));
      for (int round = 0; round < 2; round++) {
        // the AM parks the worker at the barrier, runs the sync step, then hands it a task of
        // the next round
        CompletableFuture<Optional<RunnerServer.Next>> ready = ch.nextReady();
        assertEquals(log.toString(), 0, sgd(env(dir, round), log, "sync"));
        ch.hand(ready, Optional.of(afterBarrier.get(round)));
      }
      assertEquals(out.toString(), 0, (int) worker.get(60, TimeUnit.SECONDS));
      assertEquals(0, sgd(env(dir, 2), log, "sync"));
    }
    assertEquals(List.of("done 0 2 0", "done 0 0 0", "done 0 1 0", "ready", "done 1 1 0",
        "done 1 2 0", "done 1 0 0", "ready", "done 2 0 0", "done 2 1 0", "done 2 2 0"),
        ch.reports);
    assertEquals(0, sgd(Map.of(), log, "reference", "--work-dir", dir.toString(), "--rounds",
        "3", "--tasks-per-round", "3"));
    assertArrayEquals("the model after 3 rounds is the sequential reference's, byte for byte",
        Files.readAllBytes(dir.resolve("reference-model-r3")),
        Files.readAllBytes(dir.resolve("model-r3")));
    List<String> lines = Files.readAllLines(events);
    assertEquals("a start and an end line per task", 18, lines.size());
    assertEquals("start application_1700000000000_0007 1 2 - k80 " + CONTAINER,
        lines.get(8).replaceAll(" [0-9]{13} 1$", ""));
  }
}
