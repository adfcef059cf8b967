package io.hare.bench;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.example.ContainerJava;
import io.hare.example.SgdJob;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.TaskMode;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The workers benchmark: on an embedded YARN cluster of one GPU, a job of R rounds x k tasks of
 * a fixed compute time, run in process mode (a new process per task) and in resident mode (one
 * worker per container, {@code yarn.app.hare.task.mode=resident}), for a framework:
 * <ul>
 *   <li>{@code java}: the example job ({@code SgdJob task} / {@code SgdJob worker}), its
 *       emulated GPU paced to the compute time ({@code --gpu-ms});
 *   <li>{@code python} and {@code pytorch}: {@code examples/bench_worker.py} over the
 *       {@code hare_worker} package, computing for the compute time (PyTorch: forward and
 *       backward passes of a small network).
 * </ul>
 * Each task records its wall time and compute time ({@link WorkerOverheads}); a process-mode
 * task's wall time starts before its process does. Blocking; one run per JVM at a time.
 */
public final class WorkersBench {

  private static final EnumSet<YarnApplicationState> ENDED = EnumSet.of(
      YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);
  /**
   * @param examples the example jobs' directory (bench_worker.py); its sibling {@code python}
   *     holds the {@code hare_worker} package
   * @param python the Python interpreter of the python and pytorch runs
   */
  public record Setup(int rounds, int tasks, long computeMs, int heartbeatMs, Path jar,
      Path examples, String python, long timeoutMs) {}

  /** One run: the framework, the mode and what its tasks cost. */
  public record Run(String framework, TaskMode mode, WorkerOverheads costs) {}

  private final Setup s;

  public WorkersBench(Setup s) {
    this.s = s;
  }

  /** A cluster for the runs: one NodeManager of one GPU, so the tasks run one after another. */
  public EmbeddedCluster cluster(File dir) throws Exception {
    Configuration rm = new Configuration(false);
    rm.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, s.heartbeatMs());
    return EmbeddedCluster.start(new File(dir, "cluster"), "hare-bench-workers",
        List.of(new EmbeddedCluster.Node("v100", 1)), rm);
  }

  /** Runs {@code framework}'s job in {@code mode} on {@code cluster}, in {@code dir}. */
  public Run run(EmbeddedCluster cluster, String framework, TaskMode mode, File dir)
      throws Exception {
    org.apache.hadoop.fs.FileUtil.fullyDelete(dir); // records of an earlier run would mix in
    Path work = dir.toPath().resolve("work");
    Files.createDirectories(work);
    Path record = dir.toPath().resolve("tasks.txt");
    String command = framework.equals("java") ? javaCommand(mode, work, record)
        : pythonCommand(framework, mode, record);
    Configuration c = new Configuration(false);
    c.set(AppKeys.JOB_NAME, "workers-" + framework + "-" + mode.key());
    c.setInt(AppKeys.JOB_ROUNDS, s.rounds());
    c.setInt(AppKeys.JOB_TASKS_PER_ROUND, s.tasks());
    c.set(AppKeys.JOB_STAGING_DIR, new File(dir, "staging").getAbsolutePath());
    c.set(AppKeys.TASK_COMMAND, command);
    c.set(AppKeys.TASK_MODE, mode.key());
    if (framework.equals("java")) {
      // the example job's round r+1 reads the model its sync step writes
      c.set(AppKeys.SYNC_COMMAND,
          ContainerJava.sgdJob() + " sync --work-dir " + quote(work.toString()));
    }
    c.setInt(AppKeys.TASK_MEMORY_MB, 512);
    c.setInt(AppKeys.TASK_MAX_ATTEMPTS, 1);
    c.setInt(AppKeys.AM_MEMORY_MB, 256);
    c.setInt(AppKeys.AM_MAX_ATTEMPTS, 1);
    c.setInt(AppKeys.AM_HEARTBEAT_INTERVAL_MS, s.heartbeatMs());
    c.set(AppKeys.AM_JAVA_OPTS, ContainerJava.LEAN_OPTS);
    c.set(AppKeys.AM_JAR, s.jar().toString());
    c.set(AppKeys.ENV_PREFIX + "PYTHONPATH", s.examples().resolveSibling("python").toString());
    try (YarnApps apps = YarnClientApps.open(cluster.conf())) {
      ApplicationId id = new JobSubmitter(apps, cluster.conf()).submit(JobSpecValidator.read(c));
      ApplicationReport r = await(apps, id);
      if (r.getFinalApplicationStatus() != FinalApplicationStatus.SUCCEEDED) {
        throw new IllegalStateException(framework + " " + mode.key() + ": the job ended "
            + r.getFinalApplicationStatus() + ": " + r.getDiagnostics() + " (files in " + dir
            + ")");
      }
    } catch (ConfigException e) {
      throw new BadInputException(String.join("; ", e.problems()));
    }
    WorkerOverheads costs = framework.equals("java") ? javaCosts(record) : pythonCosts(record);
    if (costs.count() != s.rounds() * s.tasks()) {
      throw new IllegalStateException(framework + " " + mode.key() + ": " + costs.count()
          + " task records for " + s.rounds() * s.tasks() + " tasks (files in " + dir + ")");
    }
    return new Run(framework, mode, costs);
  }

  private String javaCommand(TaskMode mode, Path work, Path record) {
    StringWriter out = new StringWriter();
    int init = SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out),
        io.hare.example.Env.SYSTEM).execute("init", "--work-dir", work.toString());
    if (init != SgdJob.OK) {
      throw new IllegalStateException("SgdJob init: " + out);
    }
    String java = ContainerJava.sgdJob();
    String args = " --work-dir " + quote(work.toString()) + " --gpu-ms " + s.computeMs();
    return mode == TaskMode.RESIDENT
        ? java + " worker" + args + " --events " + quote(record.toString())
        : TaskEvents.wrapTask(java + " task" + args, record);
  }

  private String pythonCommand(String framework, TaskMode mode, Path record) {
    String py = quote(s.python()) + " " + quote(s.examples().resolve("bench_worker.py").toString())
        + " --framework " + framework + " --mode " + mode.key() + " --compute-ms "
        + s.computeMs() + " --events " + quote(record.toString())
        + (framework.equals("pytorch") ? " --cpu" : "");
    // the task's clock starts before its interpreter does
    return mode == TaskMode.RESIDENT ? py : "HARE_BENCH_T0=$(date +%s%3N) " + py;
  }

  /** The example job's tasks: wall time from the events, compute time the paced GPU's. */
  private WorkerOverheads javaCosts(Path record) throws IOException {
    List<WorkerOverheads.TaskTime> tasks = new ArrayList<>();
    for (TaskEvents.Attempt a : TaskEvents.read(record).attempts()) {
      if (a.succeeded()) {
        tasks.add(new WorkerOverheads.TaskTime(a.round(), a.startMs(), a.endMs(),
            s.computeMs()));
      }
    }
    return new WorkerOverheads(tasks);
  }

  /** bench_worker.py's lines: {@code task ROUND INDEX START_MS END_MS COMPUTE_MS PID}. */
  static WorkerOverheads pythonCosts(Path record) throws IOException {
    List<WorkerOverheads.TaskTime> tasks = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
      n++;
      String[] f = line.strip().split(" ");
      if (f.length < 6 || !f[0].equals("task")) {
        throw new IOException(record + ":" + n + ": not a task line: " + line);
      }
      try {
        tasks.add(new WorkerOverheads.TaskTime(Integer.parseInt(f[1]), Long.parseLong(f[3]),
            Long.parseLong(f[4]), Math.round(Double.parseDouble(f[5]))));
      } catch (NumberFormatException e) {
        throw new IOException(record + ":" + n + ": not a task line: " + line, e);
      }
    }
    return new WorkerOverheads(tasks);
  }

  private ApplicationReport await(YarnApps apps, ApplicationId id) throws Exception {
    long deadline = System.currentTimeMillis() + s.timeoutMs();
    while (true) {
      ApplicationReport r = apps.report(id);
      if (ENDED.contains(r.getYarnApplicationState())) {
        return r;
      }
      if (System.currentTimeMillis() > deadline) {
        apps.kill(id);
        throw new IllegalStateException("the benchmark's job did not end within "
            + s.timeoutMs() + " ms");
      }
      Thread.sleep(200); // polling the RM, as `hare submit` does
    }
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

}
