package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", TaskRunnerScript.of(task));
    Map<String, String> env = new HashMap<>(Map.of("CONTAINER_ID", CONTAINER, "HARE_ROUND", "0",
        "HARE_TASK_INDEX", "0"));
    if (server != null) {
      env.putAll(Map.of("HARE_RUNNER_HOST", "127.0.0.1", "HARE_RUNNER_PORT",
          Integer.toString(server.port()), "HARE_RUNNER_SECRET", secret));
    }
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process p = pb.start();
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
}
