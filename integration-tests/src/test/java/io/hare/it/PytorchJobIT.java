package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import io.hare.core.SchedulerKeys;
import io.hare.embedded.EmbeddedCluster;
import io.hare.yarn.app.PythonWorkers;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The PyTorch example as a data team runs it: {@code pytorch_round_task.py --init} writes the
 * first model, a job spec names {@code pytorch_resident.py} as the resident worker and
 * {@code pytorch_round_task.py --sync} as the resident sync step (or, in process mode,
 * {@code pytorch_round_task.py} for both), ships the scripts and the model with
 * {@code yarn.app.hare.files}, and {@code hare submit} runs it on an
 * {@link EmbeddedCluster} through the real ApplicationMaster, task channel and containers (on
 * the CPU: the GPUs are emulated). The job succeeds, and its model equals, tensor for tensor,
 * the one the same scripts train run once per task outside YARN. Skipped without a
 * {@code python3} that has PyTorch (CI installs Debian's {@code python3-torch}).
 */
public class PytorchJobIT {

  private static final Path EXAMPLES = Path.of("dist/examples").toAbsolutePath();
    private static final int ROUNDS = 2;
  private static final int TASKS = 3;
  /** Small enough for a minute on one CPU core; deterministic kernels, so equal tensors. */
  private static final List<String> TRAINING = List.of("--model", "mlp", "--cpu",
      "--deterministic", "--examples", "256", "--batch-size", "16", "--micro-batches", "2");

  private static Path python;
  private static EmbeddedCluster hare;
  private static YarnClient yarn;
  private static Path base;

  @BeforeClass
  public static void startCluster() throws Exception {
    python = PythonWorkers.withTorch().orElse(null);
    assumeTrue("no python3 with PyTorch (python3 on PATH, /usr/bin/python3)", python != null);
    // standbys on, as on a cluster whose GPUs YARN does not isolate (the demo's): a resident
    // worker is parked at the barrier and promoted into the next round's task
    Configuration rm = new Configuration(false);
    rm.setBoolean(SchedulerKeys.STANDBY_ENABLED, true);
    hare = EmbeddedCluster.start(GenericTestUtils.getTestDir("PytorchJobIT"), "PytorchJobIT",
        List.of(new EmbeddedCluster.Node("v100", 2), new EmbeddedCluster.Node("t4", 1)), rm);
    base = GenericTestUtils.getTestDir("PytorchJobIT-jobs").toPath();
    FileUtil.fullyDelete(base.toFile());
    yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(hare.conf()));
    yarn.start();
  }

  @AfterClass
  public static void stopCluster() {
    if (yarn != null) {
      yarn.stop();
    }
    if (hare != null) {
      hare.close();
    }
  }

  /** The README's resident job: a worker per container, one sync process for the job. */
  @Test(timeout = 600_000)
  public void aResidentPytorchJobTrainsTheModelItsScriptsTrainOnePerTask() throws Exception {
    trainsTheReferenceModel("resident", "pytorch_resident.py", "resident", true);
  }

  /**
   * {@code conf/hare-job.xml}'s job: a process per task and per round's sync, and no first model
   * shipped: round 0's tasks write it ({@code --init-missing}), the model {@code --init} writes.
   */
  @Test(timeout = 600_000)
  public void aPytorchJobOfAProcessPerTaskTrainsTheSameModel() throws Exception {
    trainsTheReferenceModel("process", "pytorch_round_task.py --init-missing", "process", false);
  }

  /**
   * Submits the job with {@code worker} (a script and its options) as its task command in
   * {@code mode}, the scripts and, with {@code shipFirstModel}, {@code --init}'s model shipped
   * as files, and checks its model against the scripts run outside YARN.
   */
  private void trainsTheReferenceModel(String name, String worker, String mode,
      boolean shipFirstModel) throws Exception {
    Path job = Files.createDirectories(base.resolve(name));
    Path init = Files.createDirectories(job.resolve("init"));
    run(init, List.of("pytorch_round_task.py", "--init", "--work-dir", init.toString(),
        "--model", "mlp"), Map.of());
    Path staging = job.resolve("staging");
    Path spec = job.resolve("job.xml");
    String env = "PYTHONPATH='" + PythonWorkers.LIBRARY + "' PYTHONUNBUFFERED=1 '" + python + "' ";
    String options = String.join(" ", TRAINING);
    Files.writeString(spec, "<configuration>\n"
        + prop("yarn.app.hare.job.name", "mlp-" + name)
        + prop("yarn.app.hare.job.rounds", Integer.toString(ROUNDS))
        + prop("yarn.app.hare.job.tasks-per-round", Integer.toString(TASKS))
        + prop("yarn.app.hare.job.staging-dir", staging.toString())
        + prop("yarn.app.hare.task.mode", mode)
        + prop("yarn.app.hare.task.command", env + worker + " " + options)
        + prop("yarn.app.hare.sync.mode", mode)
        + prop("yarn.app.hare.sync.command", env + "pytorch_round_task.py --sync " + options)
        + prop("yarn.app.hare.files", String.join(",", Stream.of(
            EXAMPLES.resolve(worker.split(" ")[0]), EXAMPLES.resolve("pytorch_round_task.py"),
            shipFirstModel ? init.resolve("model-r0.pt") : null).filter(f -> f != null)
            .map(Path::toString).distinct().toList()))
        + prop("yarn.app.hare.task.memory-mb", "1024")
        + prop("yarn.app.hare.task.max-attempts", "1")
        + prop("yarn.app.hare.am.memory-mb", "1024")
        + prop("yarn.app.hare.am.max-attempts", "1")
        + "</configuration>\n", StandardCharsets.UTF_8);

    ApplicationId id = SgdJobFiles.submit(hare, spec);
    GenericTestUtils.waitFor(() -> SgdJobFiles.ended(yarn, id), 250, 540_000);
    ApplicationReport report = yarn.getApplicationReport(id);
    Path work = staging.resolve(id.toString());
    assertEquals(id + ": " + report.getDiagnostics() + "\n" + logs(id),
        FinalApplicationStatus.SUCCEEDED, report.getFinalApplicationStatus());

    Path reference = reference();
    String compared = run(reference, List.of("-c", PythonWorkers.SAME_TRAINED_MODEL,
        work.resolve("model-r" + ROUNDS + ".pt").toString(),
        reference.resolve("model-r" + ROUNDS + ".pt").toString(),
        reference.resolve("model-r0.pt").toString()), Map.of());
    assertTrue("the MLP's two weights and two biases: " + compared, compared.contains("equal 4"));
    Map<String, Set<Integer>> rounds = roundsByContainer(id);
    assertTrue("a container kept across the barrier (parked, then promoted into a task of the"
        + " next round): " + rounds, rounds.values().stream().anyMatch(r -> r.size() == ROUNDS));
    String losses = Files.readString(work.resolve("loss.tsv"));
    assertEquals("a header, then a loss line per round:\n" + losses, ROUNDS,
        losses.lines().skip(1).filter(l -> l.matches("\\d+\t\\S+")).count());
  }

  /**
   * The same scripts run outside YARN, a process per task and per sync, from the same first
   * model ({@code --init} is deterministic); made once for the tests that compare with it.
   */
  private static synchronized Path reference() throws Exception {
    Path reference = base.resolve("reference");
    if (Files.isRegularFile(reference.resolve("model-r" + ROUNDS + ".pt"))) {
      return reference;
    }
    Files.createDirectories(reference);
    run(reference, List.of("pytorch_round_task.py", "--init", "--work-dir",
        reference.toString(), "--model", "mlp"), Map.of());
    for (int r = 0; r < ROUNDS; r++) {
      for (int i = TASKS - 1; i >= 0; i--) {
        run(reference, with("pytorch_round_task.py"), roundEnv(reference, r, i));
      }
      run(reference, with("pytorch_round_task.py", "--sync"), roundEnv(reference, r, null));
    }
    return reference;
  }

  private static List<String> with(String script, String... more) {
    List<String> args = new ArrayList<>(List.of(script));
    args.addAll(TRAINING);
    args.addAll(List.of(more));
    return args;
  }

  /** The environment of task {@code index} of round {@code round} (null: the sync step). */
  private static Map<String, String> roundEnv(Path work, int round, Integer index) {
    Map<String, String> env = new java.util.HashMap<>(Map.of("HARE_TASKS_PER_ROUND",
        Integer.toString(TASKS), "HARE_WORK_DIR", work.toString(), "HARE_JOB_ID",
        "application_1700000000000_0001", "HARE_GPU_TYPE", "cpu", "HARE_ROUND",
        Integer.toString(round)));
    if (index != null) {
      env.put("HARE_TASK_INDEX", index.toString());
    }
    return env;
  }

  /** Runs {@code python ARGS} (a script of the examples, or {@code -c}) in {@code dir}. */
  private static String run(Path dir, List<String> args, Map<String, String> env)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(python.toString()));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(EXAMPLES.toFile())
        .redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("HARE_"));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(cmd + " in " + dir + ":\n" + out, 0, p.waitFor());
    return out;
  }

  /** The rounds whose tasks each task container ran, from the tasks' lines on its stdout. */
  private static Map<String, Set<Integer>> roundsByContainer(ApplicationId id)
      throws IOException {
    Map<String, Set<Integer>> rounds = new TreeMap<>();
    Pattern task = Pattern.compile("^round (\\d+) task \\d+/\\d+ on ", Pattern.MULTILINE);
    for (File root : hare.logDirs()) {
      try (Stream<Path> files = Files.walk(root.toPath())) {
        for (Path f : files.filter(f -> f.toString().contains(id.toString())
            && f.getFileName().toString().equals("stdout")).toList()) {
          Matcher m = task.matcher(Files.readString(f));
          while (m.find()) {
            rounds.computeIfAbsent(f.getParent().getFileName().toString(),
                c -> new TreeSet<>()).add(Integer.valueOf(m.group(1)));
          }
        }
      }
    }
    return rounds;
  }

  /** The stderr of each container of the application, for a failure's message. */
  private static String logs(ApplicationId id) throws IOException {
    List<String> out = new ArrayList<>();
    for (File root : hare.logDirs()) {
      try (Stream<Path> files = Files.walk(root.toPath())) {
        files.filter(f -> f.toString().contains(id.toString()) && f.getFileName().toString()
            .endsWith("stderr")).forEach(f -> {
              try {
                out.add(f + ":\n" + Files.readString(f));
              } catch (IOException e) {
                out.add(f + ": " + e);
              }
            });
      }
    }
    return String.join("\n", out);
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value.replace("&", "&amp;")
        .replace("<", "&lt;").replace(">", "&gt;") + "</value></property>\n";
  }
}
