package io.hare.cli;

import static io.hare.cli.BenchFigures.check;
import static io.hare.cli.BenchFigures.ms;
import static io.hare.cli.BenchFigures.put;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hare.bench.SwitchGaps;
import io.hare.bench.SwitchingBench;
import io.hare.core.BadInputException;
import io.hare.core.SchedulerKeys;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.TaskMode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FileUtil;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hare bench switching}: how long a GPU sits idle between two tasks on an embedded YARN
 * cluster, under the Hare scheduler and under stock CapacityScheduler, with the same AM and the
 * same intervals ({@link SwitchingBench}).
 */
@Command(name = "switching", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Measures task switches on an embedded YARN cluster: per GPU slot, the gap "
        + "between one task's end and the next task's start as the tasks record them, split into "
        + "same-job and cross-job switches, under Hare and under stock CapacityScheduler."},
    footer = {"%nExit codes: 0 measured; 1 a cluster or job failed; 2 bad options."})
public final class BenchSwitchingCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--task-seconds", required = true, paramLabel = "S",
      description = "How long each task runs (it sleeps), e.g. 2 or 10.")
  double taskSeconds;

  @Option(names = "--jobs", defaultValue = "4", paramLabel = "N",
      description = "Jobs submitted together (${DEFAULT-VALUE}).")
  int jobs;

  @Option(names = "--rounds", defaultValue = "8", paramLabel = "R",
      description = "Rounds per job (${DEFAULT-VALUE}). Switches count from when every job has"
          + " started a task to the first job's end: more rounds, a longer window.")
  int rounds;

  @Option(names = "--tasks-per-round", defaultValue = "8", split = ",",
      paramLabel = "K[,K...]",
      description = {"Tasks per round, job j taking the (j mod n)-th (${DEFAULT-VALUE}): a round "
          + "of more tasks than the cluster's GPUs runs some of them one after another on one "
          + "GPU, the same-job switches; the rest of its GPUs go to other jobs, the cross-job "
          + "ones."})
  List<Integer> k;

  @Option(names = "--nodes", defaultValue = "3", paramLabel = "N",
      description = "NodeManagers (${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--gpus-per-node", defaultValue = "2", paramLabel = "G",
      description = "GPUs per NodeManager (${DEFAULT-VALUE}).")
  int gpusPerNode;

  @Option(names = "--heartbeat-ms", defaultValue = "100", paramLabel = "MS",
      description = "AM and NodeManager heartbeat interval, the same for both schedulers "
          + "(${DEFAULT-VALUE}).")
  int heartbeatMs;

  @Option(names = "--skip-stock", description = "Measure Hare only.")
  boolean skipStock;

  @Option(names = "--no-standbys", description = {"Run Hare with standby and parked containers "
      + "off, as its default configuration is (yarn.scheduler.hare.standby.enabled=false): a "
      + "switch to another job's task is then a container launch. By default the bench turns "
      + "them on."})
  boolean noStandbys;

  @Option(names = "--task-mode", defaultValue = "process", paramLabel = "MODE",
      description = {"process (${DEFAULT-VALUE}): each task sleeps in a process of its own; "
          + "resident: each container runs the example job's worker (SgdJob worker), its GPU "
          + "paced to the task time, which takes task after task (yarn.app.hare.task.mode)."})
  String taskMode;

  @Option(names = "--json", description = "Print one JSON object on stdout instead of a table.")
  boolean json;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Keep the clusters' files and logs here (default: a temporary directory).")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<String> problems = new ArrayList<>();
    if (!(taskSeconds > 0 && taskSeconds <= 3600)) {
      problems.add("--task-seconds: must be > 0 and <= 3600, got " + taskSeconds);
    }
    check(problems, "--jobs", jobs, 1, 50);
    check(problems, "--rounds", rounds, 1, 100);
    for (int each : k) {
      check(problems, "--tasks-per-round", each, 1, 64);
    }
    check(problems, "--nodes", nodes, 1, 8);
    check(problems, "--gpus-per-node", gpusPerNode, 1, 8);
    check(problems, "--heartbeat-ms", heartbeatMs, 10, 60_000);
    if (TaskMode.parse(taskMode).isEmpty()) {
      problems.add("--task-mode: process or resident, got " + taskMode);
    }
    if (!problems.isEmpty()) {
      throw new BadInputException(String.join(System.lineSeparator(), problems));
    }
    EmbeddedJars.require("hare bench switching");
    Path dir = out != null ? out : Files.createTempDirectory("hare-bench-switching");
    SwitchingBench bench = new SwitchingBench(new SwitchingBench.Workload(
        Math.round(taskSeconds * 1000), jobs, rounds, k, heartbeatMs, nodes, gpusPerNode,
        EmbeddedJars.ownJar(), 30 * 60_000L, TaskMode.parse(taskMode).orElseThrow()));
    SwitchingBench.Result hare;
    SwitchingBench.Result stock = null;
    try {
      hare = bench.run("hare", hareSchedulerConf(), Map.of(), dir.resolve("hare").toFile());
      if (!skipStock) {
        // stock YARN: a container per task, as an AM without Hare's task runner does it
        stock = bench.run("capacity", SwitchingBench.capacityScheduler(),
            Map.of(AppKeys.TASK_REUSE_ENABLED, "false", AppKeys.TASK_MODE, "process"),
            dir.resolve("capacity").toFile());
      }
    } finally {
      if (out == null) {
        FileUtil.fullyDelete(dir.toFile());
      }
    }
    print(hare, stock);
    boolean ok = hare.failedJobs() == 0 && (stock == null || stock.failedJobs() == 0);
    return ok ? HareCommand.OK : HareCommand.FAILURE;
  }

  /**
   * The Hare run's scheduler settings: standby containers on unless {@code --no-standbys} (off
   * by default in a real cluster), and the tasks' time, as a profile tells it for a known model:
   * the scheduler launches the next job's standby when a task is about to end by this estimate.
   */
  Map<String, String> hareSchedulerConf() {
    return Map.of(SchedulerKeys.STANDBY_ENABLED, Boolean.toString(!noStandbys),
        SchedulerKeys.PROFILES_DEFAULT_COMPUTE_MS, Long.toString(Math.round(taskSeconds * 1000)));
  }

  private void print(SwitchingBench.Result hare, SwitchingBench.Result stock) throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode n = m.createObjectNode();
      SwitchGaps g = hare.gaps();
      put(n, "switch_overhead_fraction", g.overheadFraction());
      put(n, "median_gap_ms", SwitchGaps.percentile(g.all(), 50));
      put(n, "p95_gap_ms", SwitchGaps.percentile(g.all(), 95));
      put(n, "same_job_median_gap_ms", SwitchGaps.percentile(g.sameJob(), 50));
      put(n, "cross_job_median_gap_ms", SwitchGaps.percentile(g.crossJob(), 50));
      if (stock != null) {
        put(n, "stock_switch_overhead_fraction", stock.gaps().overheadFraction());
        put(n, "stock_median_gap_ms", SwitchGaps.percentile(stock.gaps().all(), 50));
      }
      n.put("task_seconds", taskSeconds);
      n.put("heartbeat_ms", heartbeatMs);
      n.put("switches", g.all().size());
      o.println(m.writeValueAsString(n));
    } else {
      String fmt = "%-10s %9s %9s %9s %10s %11s %9s %9s%n";
      o.printf(Locale.ROOT, fmt, "scheduler", "switches", "median", "p95", "same-job", "cross-job",
          "overhead", "attempts");
      for (SwitchingBench.Result r : stock == null ? List.of(hare) : List.of(hare, stock)) {
        SwitchGaps g = r.gaps();
        o.printf(Locale.ROOT, fmt, r.scheduler(), g.all().size(),
            ms(SwitchGaps.percentile(g.all(), 50)), ms(SwitchGaps.percentile(g.all(), 95)),
            ms(SwitchGaps.percentile(g.sameJob(), 50)),
            ms(SwitchGaps.percentile(g.crossJob(), 50)),
            String.format(Locale.ROOT, "%.2f%%", 100 * g.overheadFraction()), r.attempts());
      }
      o.printf(Locale.ROOT, "(gaps in ms, medians of same-job and cross-job switches; tasks of "
          + "%.1f s, heartbeats %d ms)%n", taskSeconds, heartbeatMs);
    }
    o.flush();
  }
}
