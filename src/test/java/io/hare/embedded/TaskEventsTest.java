package io.hare.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The wrapper really runs under bash and records what the process did; the reader pairs it. */
public class TaskEventsTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private int run(String command, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", command);
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    return p.waitFor();
  }

  private static Map<String, String> task(int round, int index, String container) {
    return Map.of("HARE_JOB_ID", "application_1_0001", "HARE_ROUND", Integer.toString(round),
        "HARE_TASK_INDEX", Integer.toString(index), "NM_HOST", "127.0.0.2",
        "HARE_GPU_TYPE", "v100", "CONTAINER_ID", container);
  }

  @Test(timeout = 60_000)
  public void recordsStartEndAndExitCodeOfEachAttemptAndKeepsTheExitCode() throws Exception {
    Path events = tmp.getRoot().toPath().resolve("events.txt");
    assertEquals(0, run(TaskEvents.wrapTask("true", events), task(0, 0, "c1")));
    // an `exit` inside the command still lets the wrapper write the end line
    assertEquals(3, run(TaskEvents.wrapTask("echo hi; exit 3", events), task(0, 1, "c2")));
    assertEquals(0, run(TaskEvents.wrapSync("true", events), Map.of("HARE_JOB_ID",
        "application_1_0001", "HARE_ROUND", "0", "CONTAINER_ID", "c0")));

    TaskEvents.Runs runs = TaskEvents.read(events);
    assertEquals(2, runs.attempts().size());
    TaskEvents.Attempt ok = runs.attempts().stream().filter(a -> a.index() == 0).findFirst()
        .orElseThrow();
    assertEquals("application_1_0001", ok.appId());
    assertEquals("127.0.0.2", ok.host());
    assertEquals("v100", ok.gpuType());
    assertEquals("c1", ok.containerId());
    assertTrue(ok.succeeded());
    assertTrue(ok.durationMs() >= 0);
    TaskEvents.Attempt failed = runs.attempts().stream().filter(a -> a.index() == 1)
        .findFirst().orElseThrow();
    assertFalse(failed.succeeded());
    assertEquals(3, failed.exitCode());
    assertEquals(1, runs.syncs().size());
    assertEquals(0, runs.syncs().get(0).round());
  }

  @Test(timeout = 60_000)
  public void recordsTheGpuDeviceTheProcessSaw() throws Exception {
    Path events = tmp.getRoot().toPath().resolve("devices.txt");
    Map<String, String> hare = new HashMap<>(task(0, 0, "c1"));
    hare.put("HARE_GPU_DEVICE", "2");
    hare.put("CUDA_VISIBLE_DEVICES", "2");
    Map<String, String> cuda = new HashMap<>(task(0, 1, "c2"));
    cuda.put("CUDA_VISIBLE_DEVICES", "1"); // YARN's or the user's, without Hare's index
    assertEquals(0, run(TaskEvents.wrapTask("true", events), hare));
    assertEquals(0, run(TaskEvents.wrapTask("true", events), cuda));
    ProcessBuilder none = new ProcessBuilder("bash", "-c", TaskEvents.wrapTask("true", events));
    none.environment().putAll(task(0, 2, "c3"));
    none.environment().remove("HARE_GPU_DEVICE");
    none.environment().remove("CUDA_VISIBLE_DEVICES");
    assertEquals(0, none.start().waitFor());
    Map<Integer, String> seen = new HashMap<>();
    TaskEvents.read(events).attempts().forEach(a -> seen.put(a.index(), a.gpuDevice()));
    assertEquals(Map.of(0, "2", 1, "1", 2, ""), seen);
    assertFalse("the NodeManager's launch script drops a double closing brace",
        TaskEvents.wrapTask("true", events).contains("}}"));
  }

  @Test(timeout = 60_000)
  public void aStartWithoutAnEndIsAnAttemptThatNeverEnded() throws Exception {
    Path events = tmp.getRoot().toPath().resolve("events.txt");
    Files.write(events, List.of(
        "start application_1_0001 2 0 127.0.0.3 t4 c7 1000",
        "sync-start application_1_0001 1 - 127.0.0.2 - c0 900"));
    TaskEvents.Runs runs = TaskEvents.read(events);
    assertEquals(1, runs.attempts().size());
    assertFalse(runs.attempts().get(0).ended());
    assertEquals(-1, runs.attempts().get(0).durationMs());
    assertEquals(-1, runs.syncs().get(0).endMs());
  }

  @Test(timeout = 60_000)
  public void aMissingFileHasNoRunsAndAGarbageLineIsNamed() throws Exception {
    Path events = tmp.getRoot().toPath().resolve("events.txt");
    assertTrue(TaskEvents.read(events).attempts().isEmpty());
    Files.write(events, List.of("start application_1_0001 0 0 h v100 c1 1000",
        "end application_1_0001 0 0 h v100 c1 soon 0"));
    try {
      TaskEvents.read(events);
      fail("a bad time was read");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("events.txt:2"));
    }
  }
}
