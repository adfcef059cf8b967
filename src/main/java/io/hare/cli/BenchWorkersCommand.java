package io.hare.cli;

import static io.hare.cli.BenchFigures.check;
import static io.hare.cli.BenchFigures.ms;
import static io.hare.cli.BenchFigures.put;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hare.bench.WorkerOverheads;
import io.hare.bench.WorkersBench;
import io.hare.core.BadInputException;
import io.hare.embedded.EmbeddedCluster;
import io.hare.yarn.app.TaskMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileUtil;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hare bench workers}: what a task costs beyond its computation in process mode and in
 * resident mode, per framework, on an embedded YARN cluster ({@link WorkersBench}). A framework
 * whose interpreter or library is missing is reported as skipped.
 */
@Command(name = "workers", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Measures per-task overhead (task wall time minus compute) of a job of R "
        + "rounds x k tasks on one GPU of an embedded YARN cluster, with a new process per task "
        + "(process mode) and with one resident worker per container (resident mode)."},
    footer = {"%nExit codes: 0 measured; 1 a cluster or job failed; 2 bad options."})
public final class BenchWorkersCommand implements Callable<Integer> {

  static final List<String> FRAMEWORKS = List.of("java", "python", "pytorch");

  @Spec
  CommandSpec spec;

  @Option(names = "--framework", split = ",", paramLabel = "NAME[,NAME...]",
      defaultValue = "java,python,pytorch",
      description = "Frameworks to measure: java, python, pytorch (${DEFAULT-VALUE}).")
  List<String> frameworks;

  @Option(names = "--rounds", defaultValue = "3", paramLabel = "R",
      description = "Rounds of the job (${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--tasks-per-round", defaultValue = "6", paramLabel = "K",
      description = "Tasks per round (${DEFAULT-VALUE}); they run one after another on the GPU.")
  int tasks;

  @Option(names = "--compute-ms", defaultValue = "500", paramLabel = "MS",
      description = "Each task's compute time (${DEFAULT-VALUE}).")
  long computeMs;

  @Option(names = "--python", paramLabel = "PATH",
      description = {"The Python interpreter of the python and pytorch runs (default: python3 "
          + "on the PATH, else /usr/bin/python3; for pytorch the first that imports torch)."})
  String python;

  @Option(names = "--json", description = "Print one JSON object on stdout instead of a table.")
  boolean json;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Keep the cluster's files and logs here (default: a temporary directory).")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<String> problems = new ArrayList<>();
    for (String f : frameworks) {
      if (!FRAMEWORKS.contains(f)) {
        problems.add("--framework: one of " + String.join(", ", FRAMEWORKS) + ", got " + f);
      }
    }
    check(problems, "--rounds", rounds, 1, 100);
    check(problems, "--tasks-per-round", tasks, 1, 100);
    if (computeMs < 1 || computeMs > 60_000) {
      problems.add("--compute-ms: must be from 1 to 60000, got " + computeMs);
    }
    Path examples = Path.of(System.getProperty("hare.examples.dir", "dist/examples"));
    boolean needsPython = frameworks.stream().anyMatch(f -> !f.equals("java"));
    if (needsPython && !Files.isRegularFile(examples.resolve("bench_worker.py"))) {
      problems.add("no " + examples.resolve("bench_worker.py") + " (run bin/hare, which sets"
          + " -Dhare.examples.dir)");
    }
    if (!problems.isEmpty()) {
      throw new BadInputException(String.join(System.lineSeparator(), problems));
    }
    EmbeddedJars.require("hare bench workers");
    Map<String, String> skipped = new LinkedHashMap<>();
    Map<String, String> interpreters = new LinkedHashMap<>();
    for (String f : frameworks) {
      if (!f.equals("java")) {
        Optional<String> py = interpreter(f.equals("pytorch"));
        if (py.isEmpty()) {
          skipped.put(f, f.equals("pytorch") ? "no Python interpreter that imports torch"
              : "no Python interpreter");
        } else {
          interpreters.put(f, py.get());
        }
      }
    }
    Path dir = out != null ? out : Files.createTempDirectory("hare-bench-workers");
    List<WorkersBench.Run> runs = new ArrayList<>();
    try {
      WorkersBench.Setup base = new WorkersBench.Setup(rounds, tasks, computeMs, 100,
          EmbeddedJars.ownJar(), examples.toAbsolutePath(), "python3", 20 * 60_000L);
      try (EmbeddedCluster cluster = new WorkersBench(base).cluster(dir.toFile())) {
        for (String f : frameworks) {
          if (skipped.containsKey(f)) {
            continue;
          }
          WorkersBench bench = new WorkersBench(new WorkersBench.Setup(rounds, tasks, computeMs,
              base.heartbeatMs(), base.jar(), base.examples(),
              interpreters.getOrDefault(f, "python3"), base.timeoutMs()));
          for (TaskMode mode : TaskMode.values()) {
            runs.add(bench.run(cluster, f, mode, dir.resolve(f + "-" + mode.key()).toFile()));
          }
        }
      }
    } finally {
      if (out == null) {
        FileUtil.fullyDelete(dir.toFile());
      }
    }
    print(runs, skipped);
    return HareCommand.OK;
  }

  /** The first interpreter that runs (and, for {@code torch}, imports torch). */
  private Optional<String> interpreter(boolean torch) throws InterruptedException {
    List<String> candidates = python != null ? List.of(python)
        : List.of("python3", "/usr/bin/python3");
    for (String c : candidates) {
      try {
        Process p = new ProcessBuilder(c, "-c", torch ? "import torch" : "import sys")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return Optional.of(c);
        }
        p.destroyForcibly();
      } catch (IOException e) {
        // not installed: try the next
      }
    }
    return Optional.empty();
  }

  private void print(List<WorkersBench.Run> runs, Map<String, String> skipped) throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode n = m.createObjectNode();
      for (WorkersBench.Run r : runs) {
        String p = r.framework() + "_" + r.mode().key() + "_overhead";
        WorkerOverheads c = r.costs();
        put(n, p + "_ms", c.overheadPercentile(50));
        put(n, p + "_p95_ms", c.overheadPercentile(95));
        put(n, p + "_fraction", c.overheadFraction());
        put(n, r.framework() + "_" + r.mode().key() + "_gap_ms", c.gapPercentile(50));
      }
      skipped.forEach((f, why) -> n.put(f + "_skipped", why));
      n.put("compute_ms", computeMs);
      n.put("rounds", rounds);
      n.put("tasks_per_round", tasks);
      o.println(m.writeValueAsString(n));
    } else {
      String fmt = "%-9s %-9s %6s %14s %12s %10s %11s%n";
      o.printf(Locale.ROOT, fmt, "framework", "mode", "tasks", "overhead p50", "p95", "fraction",
          "gap p50");
      for (WorkersBench.Run r : runs) {
        WorkerOverheads c = r.costs();
        o.printf(Locale.ROOT, fmt, r.framework(), r.mode().key(), c.count(),
            ms(c.overheadPercentile(50)), ms(c.overheadPercentile(95)),
            String.format(Locale.ROOT, "%.1f%%", 100 * c.overheadFraction()),
            ms(c.gapPercentile(50)));
      }
      skipped.forEach((f, why) -> o.printf(Locale.ROOT, "%-9s skipped: %s%n", f, why));
      o.printf(Locale.ROOT, "(overhead: a task's wall time minus its %d ms of compute; gap: from"
          + " one task's end to the next one's start in a round; %d rounds x %d tasks on one"
          + " GPU)%n", computeMs, rounds, tasks);
    }
    o.flush();
  }
}
