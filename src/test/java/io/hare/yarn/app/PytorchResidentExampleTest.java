package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code dist/examples/pytorch_resident.py}, one resident worker against a real {@link
 * RunnerServer}, trains the same model, tensor for tensor, as {@code pytorch_round_task.py} run
 * once per task (on the CPU, deterministic kernels). Skipped without a Python that has PyTorch.
 */
public class PytorchResidentExampleTest {

  private static final String CONTAINER = "container_1700000000000_0007_01_000004";
  private static final ContainerId ID = ContainerId.fromString(CONTAINER);
  private static final Path EXAMPLES = Path.of("dist/examples").toAbsolutePath();
  private static final int ROUNDS = 2;
  private static final int TASKS = 2;
  /** Small enough for a minute on one CPU core. */
  private static final List<String> TRAINING = List.of("--model", "mlp", "--cpu",
      "--deterministic", "--examples", "256", "--batch-size", "16", "--micro-batches", "2");
  private static Path python;

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void findTorch() {
    python = PythonWorkers.withTorch().orElse(null);
    assumeTrue("no python3 with PyTorch (python3 on PATH, /usr/bin/python3)", python != null);
  }

  /** Runs {@code script} of the examples with {@code args} and the round's environment. */
  private void runExample(String script, List<String> args, Path workDir, Integer round,
      Integer index) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(python.toString(),
        EXAMPLES.resolve(script).toString()));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(jobEnv(workDir));
    if (round != null) {
      pb.environment().put("HARE_ROUND", round.toString());
    }
    if (index != null) {
      pb.environment().put("HARE_TASK_INDEX", index.toString());
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(cmd + " " + round + "/" + index + ":\n" + out, 0, p.waitFor());
  }

  private static Map<String, String> jobEnv(Path workDir) {
    return Map.of("HARE_TASKS_PER_ROUND", Integer.toString(TASKS), "HARE_WORK_DIR",
        workDir.toString(), "HARE_JOB_ID", "application_1700000000000_0007",
        "HARE_GPU_TYPE", "cpu");
  }

  private void sync(Path workDir, int round) throws Exception {
    runExample("pytorch_round_task.py", with("--sync"), workDir, round, null);
  }

  /** The example's sync step as one process for the job, in {@code workDir}. */
  private ResidentSyncStep residentSync(Path workDir, ExecutorService thread) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(python.toString(),
        EXAMPLES.resolve("pytorch_round_task.py").toString()));
    cmd.addAll(with("--sync"));
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.JOB_TASKS_PER_ROUND, Integer.toString(TASKS));
    m.put(AppKeys.SYNC_COMMAND, cmd.stream().map(TaskLaunch::quote)
        .collect(Collectors.joining(" ")));
    m.put(AppKeys.SYNC_MODE, "resident");
    m.put(AppKeys.ENV_PREFIX + "PYTHONPATH", PythonWorkers.LIBRARY.toString());
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    Path logs = Files.createDirectories(workDir.resolve("logs"));
    return new ResidentSyncStep(spec, "application_1700000000000_0007", workDir.toString(),
        logs.toFile(), thread);
  }

  private static void residentSync(SyncStep step, int round) throws Exception {
    BlockingQueue<Integer> codes = new ArrayBlockingQueue<>(1);
    step.start(round, codes::add);
    Integer code = codes.poll(300, TimeUnit.SECONDS);
    assertEquals(Files.readString(Path.of(step.logLocation(round))), Integer.valueOf(0), code);
  }

  private static List<String> with(String... more) {
    List<String> args = new ArrayList<>(TRAINING);
    args.addAll(List.of(more));
    return args;
  }

  /**
   * A work directory given as a {@code file:} URI (the AM gives one where the default file
   * system is another) is read as its path; an {@code hdfs://} one is refused, named.
   */
  @Test(timeout = 300_000)
  public void aFileUriWorkDirectoryIsItsPathAndAnHdfsOneIsRefused() throws Exception {
    Path work = tmp.newFolder("uri").toPath();
    runExample("pytorch_round_task.py", List.of("--init", "--work-dir", work.toString(),
        "--model", "mlp"), work, null, null);
    List<String> cmd = new ArrayList<>(List.of(python.toString(),
        EXAMPLES.resolve("pytorch_round_task.py").toString()));
    cmd.addAll(TRAINING);
    for (String dir : List.of(work.toUri().toString(), "hdfs://nn:8020" + work)) {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      pb.environment().keySet().removeIf(k -> k.startsWith("HARE_"));
      pb.environment().putAll(jobEnv(work));
      pb.environment().putAll(Map.of("HARE_WORK_DIR", dir, "HARE_ROUND", "0",
          "HARE_TASK_INDEX", "1"));
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes());
      if (dir.startsWith("file:")) {
        assertEquals(dir + ":\n" + out, 0, p.waitFor());
        assertTrue(dir + ": its gradient in the directory", Files.isRegularFile(
            work.resolve("grad-r0-t1.pt")));
      } else {
        assertEquals(dir + ":\n" + out, 2, p.waitFor());
        assertTrue(out, out.contains("HARE_WORK_DIR: " + dir + " is not a POSIX path"));
      }
    }
  }

  /** The parameter load that overlaps the first forward pass ({@code overlapped_load.py}). */
  @Test(timeout = 300_000)
  public void theOverlappedLoadsUnitTestsPass() throws Exception {
    Process p = new ProcessBuilder(python.toString(), "-m", "unittest", "-v",
        "test_overlapped_load").directory(EXAMPLES.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(out, 0, p.waitFor());
    assertTrue("ran with torch, none skipped:\n" + out, out.contains("Ran 4 tests")
        && !out.contains("skipped"));
  }

  /**
   * The resident worker loads each new round's parameters before the task computes (the
   * default), and its model equals the process-per-task script's, tensor for tensor.
   */
  @Test(timeout = 600_000)
  public void oneResidentWorkerTrainsTheModelTheProcessPerTaskScriptTrains() throws Exception {
    residentWorkerTrainsTheModelTheProcessPerTaskScriptTrains(List.of(), "loaded before");
  }

  /** The same with the parameters copied during the task's first forward pass. */
  @Test(timeout = 600_000)
  public void withTheOverlappedLoadTooTheResidentModelIsTheProcessPerTaskOne() throws Exception {
    residentWorkerTrainsTheModelTheProcessPerTaskScriptTrains(List.of("--overlap-load"),
        "loaded during");
  }

  /**
   * {@code check_resident_gpu.py}, the GPU machine's check, run on the CPU: it proves each
   * worker's container, hands two jobs' workers their tasks, and accounts for every task.
   */
  @Test(timeout = 600_000)
  public void theResidentGpuCheckRunsTwoJobsWorkersToTheEnd() throws Exception {
    Path json = tmp.getRoot().toPath().resolve("check.json");
    Process p = new ProcessBuilder(python.toString(),
        EXAMPLES.resolve("check_resident_gpu.py").toString(), "--models", "mlp,mlp", "--cpu",
        "--task-seconds", "0.05", "--rounds", "2", "--tasks", "2", "--work-root",
        tmp.getRoot().toString(), "--json", json.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(out, 0, p.waitFor());
    // two rounds of two tasks per job alone, then two more with the jobs taking turns; a job's
    // first task of a round loads that round's parameters
    runScript(out, List.of(
        "import json, sys",
        "d = json.load(open(sys.argv[1]))",
        "assert sorted(d['jobs']) == ['job0-mlp', 'job1-mlp'], list(d['jobs'])",
        "for j in d['jobs'].values():",
        "    t = j['tasks']",
        "    assert [(r, i) for r, i, *_ in t] == [(r, i) for r in range(4) for i in range(2)], t",
        "    assert [x[2] for x in t] == ['same-job'] * 4 + ['cross-job'] * 4, t",
        "    assert [x[3] for x in t] == ['loaded before', 'kept'] * 4, t",
        "    assert all(w >= c + g for _, _, _, _, w, c, g in t), t",
        "    assert j['cross_job_switches'] == 4 and j['same_job_tasks'] == 2, j",
        "print('checked')"), json.toString());
  }

  /**
   * {@code bench_resident_sync.py}: both sync modes on the same gradients, one resident process
   * answering every round, and the two final models equal (it fails otherwise).
   */
  @Test(timeout = 600_000)
  public void theSyncBenchRunsBothModesToTheSameModel() throws Exception {
    Path json = tmp.getRoot().toPath().resolve("sync.json");
    Process p = new ProcessBuilder(python.toString(),
        EXAMPLES.resolve("bench_resident_sync.py").toString(), "--model", "mlp", "--rounds", "3",
        "--tasks", "2", "--json", json.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(out, 0, p.waitFor());
    assertTrue(out, out.contains("the final models are equal tensor for tensor"));
    runScript(out, List.of(
        "import json, sys",
        "d = json.load(open(sys.argv[1]))",
        "assert d['models_equal'] is True, d",
        "assert len(d['process_round_s']) == 3 and len(d['resident_round_s']) == 3, d",
        "assert all(t > 0 for t in d['process_round_s'] + d['resident_round_s']), d",
        "print('checked')"), json.toString());
  }

  /** Runs a Python script of {@code lines} with {@code args}; its output, after exit 0. */
  private String runScript(String context, List<String> lines, String... args) throws Exception {
    Path script = Files.createTempFile(tmp.getRoot().toPath(), "check", ".py");
    Files.writeString(script, String.join("\n", lines) + "\n");
    List<String> cmd = new ArrayList<>(List.of(python.toString(), script.toString()));
    cmd.addAll(List.of(args));
    Process c = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String said = new String(c.getInputStream().readAllBytes());
    assertEquals(said + "\n" + context, 0, c.waitFor());
    return said;
  }

  private void residentWorkerTrainsTheModelTheProcessPerTaskScriptTrains(List<String> load,
      String loaded) throws Exception {
    Path resident = tmp.newFolder("resident").toPath();
    Path perTask = tmp.newFolder("process").toPath();
    runExample("pytorch_round_task.py", List.of("--init", "--work-dir", resident.toString(),
        "--model", "mlp"), resident, null, null);
    Files.copy(resident.resolve("model-r0.pt"), perTask.resolve("model-r0.pt"));

    // process mode: a process per task, then the sync step
    for (int r = 0; r < ROUNDS; r++) {
      for (int i = TASKS - 1; i >= 0; i--) {
        runExample("pytorch_round_task.py", TRAINING, perTask, r, i);
      }
      sync(perTask, r);
    }

    // resident: round by round, the AM hands the worker the round's tasks and parks it at the
    // barrier; the sync step runs while it waits, in one process for the job
    // (yarn.app.hare.sync.mode=resident)
    ExecutorService syncThread = Executors.newSingleThreadExecutor();
    ResidentSyncStep residentSync = residentSync(resident, syncThread);
    ScriptedChannel h = new ScriptedChannel(new RunnerServer.Next(0, 0),
        new RunnerServer.Next(0, 1), RunnerServer.Next.PARK, new RunnerServer.Next(1, 1),
        RunnerServer.Next.PARK);
    Path out = tmp.getRoot().toPath().resolve("worker.txt");
    Process p;
    ChannelKeys keys = new ChannelKeys();
    try (RunnerServer s = new RunnerServer(h, keys, InetAddress.getLoopbackAddress())) {
      List<String> cmd = new ArrayList<>(List.of(python.toString(),
          EXAMPLES.resolve("pytorch_resident.py").toString()));
      cmd.addAll(TRAINING);
      cmd.addAll(load);
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(out.toFile());
      pb.environment().keySet().removeIf(k -> k.startsWith("HARE_"));
      pb.environment().putAll(PythonWorkers.containerEnv(ID, s, keys,
          tmp.getRoot().toPath().resolve("container_tokens")));
      pb.environment().putAll(jobEnv(resident));
      pb.environment().putAll(Map.of("HARE_ROUND", "0", "HARE_TASK_INDEX", "0"));
      p = pb.start();
      CompletableFuture<Optional<RunnerServer.Next>> parked = h.nextReady();
      residentSync(residentSync, 0);
      h.hand(parked, new RunnerServer.Next(1, 0));
      parked = h.nextReady();
      residentSync(residentSync, 1);
      assertTrue("the sync process waits for the next round", residentSync.alive());
      h.hand(parked, Optional.empty());
      assertEquals("told to exit: 0\n" + Files.readString(out), 0, p.waitFor());
    } finally {
      residentSync.close();
      syncThread.shutdownNow();
    }
    String syncLog = Files.readString(Path.of(residentSync.logLocation(1)));
    assertTrue(syncLog, syncLog.contains("round 0 sync of 2 tasks")
        && syncLog.contains("round 1 sync of 2 tasks"));
    String said = Files.readString(out);
    assertEquals(said, List.of("done 0 0 0", "done 0 1 0", "ready", "done 1 0 0",
        "done 1 1 0", "ready"), h.reports);
    Matcher m = Pattern.compile("pid (\\d+)").matcher(said);
    List<Long> pids = new ArrayList<>();
    while (m.find()) {
      pids.add(Long.valueOf(m.group(1)));
    }
    assertEquals("one process ran the four tasks\n" + said, List.of(p.pid(), p.pid(), p.pid(),
        p.pid()), pids);
    Matcher how = Pattern.compile("parameters ([a-z ]+);").matcher(said);
    List<String> hows = new ArrayList<>();
    while (how.find()) {
      hows.add(how.group(1));
    }
    assertEquals(said, List.of(loaded, "kept", loaded, "kept"), hows);

    String compared = runScript("", List.of(PythonWorkers.SAME_TRAINED_MODEL),
        resident.resolve("model-r" + ROUNDS + ".pt").toString(),
        perTask.resolve("model-r" + ROUNDS + ".pt").toString(),
        perTask.resolve("model-r0.pt").toString());
    assertTrue("the MLP's two weights and two biases: " + compared,
        compared.contains("equal 4"));
  }
}
