package io.hare.cli;

import io.hare.bench.BenchReport;
import io.hare.bench.BenchShape;
import io.hare.bench.Contender;
import io.hare.bench.RunResult;
import io.hare.bench.SchedulerBench;
import io.hare.core.BadInputException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hare bench scheduler}: the Hare scheduler against YARN's CapacityScheduler on the same
 * per-round GPU workload, each in an in-process ResourceManager ({@link SchedulerBench}).
 * Checks the options, runs, prints a table or one JSON object; bad options are a
 * {@link BadInputException} (exit 2).
 */
@Command(name = "scheduler", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Drive the Hare scheduler and CapacityScheduler (DominantResourceCalculator,"
        + " several off-switch assignments per heartbeat) with the same workload in this JVM:"
        + " N NodeManager heartbeats per tick and J jobs asking k one-GPU containers per round"
        + " (k 1-8), the next round once all k tasks ended.",
        "Reports allocations per second of scheduling-path time while filling an empty "
            + "cluster and in steady churn, heartbeat latency (p50, p99), Hare's re-plan time "
            + "and the RM heap the jobs take. Logs go to stderr.",
        "Give the JVM room for big runs: HARE_OPTS=-Xmx8g."},
    footerHeading = "%nExit codes:%n",
    footer = {"  0  the results were printed",
        "  1  the bench failed (a scheduler or harness error; see the log)",
        "  2  bad options"})
public final class BenchSchedulerCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "100",
      description = "NodeManagers (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--gpus-per-node", paramLabel = "G", defaultValue = "8",
      description = "GPUs per node, 1 to 64 (default: ${DEFAULT-VALUE}); node types cycle "
          + "v100, t4, m60, k80.")
  int gpusPerNode;

  @Option(names = "--jobs", paramLabel = "J", defaultValue = "200",
      description = "Jobs, all submitted at the start (default: ${DEFAULT-VALUE}).")
  int jobs;

  @Option(names = "--warmup-ticks", paramLabel = "T", defaultValue = "5",
      description = "Unmeasured churn ticks after the fill (default: ${DEFAULT-VALUE}).")
  int warmupTicks;

  @Option(names = "--churn-ticks", paramLabel = "T", defaultValue = "20",
      description = "Measured churn ticks; a tick is one heartbeat of every node "
          + "(default: ${DEFAULT-VALUE}).")
  int churnTicks;

  @Option(names = "--schedulers", paramLabel = "S[,S]", defaultValue = "hare,capacity",
      description = "Which to run, in order: hare, capacity (default: ${DEFAULT-VALUE}).")
  String schedulers;

  @Option(names = "--pass-interval-ms", paramLabel = "MS", defaultValue = "0",
      description = "Hare's least time between two policy passes, 0 to 1000 "
          + "(yarn.scheduler.hare.pass.min-interval-ms; default: ${DEFAULT-VALUE}, a pass at every"
          + " heartbeat that changed something). Heartbeats are spread over each tick.")
  long passIntervalMs;

  @Option(names = "--arrivals-per-tick", paramLabel = "A", defaultValue = "0",
      description = "New jobs arriving in each warm-up and churn tick, spread over it, beside "
          + "the --jobs that arrive at the start; each arrival makes Hare re-plan (at most once "
          + "per tick). 0 to 100,000 (default: ${DEFAULT-VALUE}).")
  int arrivalsPerTick;

  @Option(names = "--json", description = "Print one JSON object instead of the table.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    SchedulerBench.Settings s = settings();
    List<Contender> which = contenders();
    List<RunResult> results = SchedulerBench.run(s, which);
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? BenchReport.toJsonText(s, results) : BenchReport.table(s, results));
    out.flush();
    return HareCommand.OK;
  }

  private SchedulerBench.Settings settings() throws BadInputException {
    atLeast("--nodes", nodes, 1);
    atLeast("--jobs", jobs, 1);
    atLeast("--warmup-ticks", warmupTicks, 0);
    atLeast("--churn-ticks", churnTicks, 1);
    if (gpusPerNode < 1 || gpusPerNode > 64) {
      throw new BadInputException("--gpus-per-node: must be 1 to 64, got " + gpusPerNode);
    }
    if (passIntervalMs < 0 || passIntervalMs > 1000) {
      throw new BadInputException("--pass-interval-ms: must be 0 to 1000, got "
          + passIntervalMs);
    }
    if (arrivalsPerTick < 0 || arrivalsPerTick > 100_000) {
      throw new BadInputException("--arrivals-per-tick: must be 0 to 100000, got "
          + arrivalsPerTick);
    }
    return new SchedulerBench.Settings(new BenchShape(nodes, gpusPerNode, jobs, 0, 0),
        warmupTicks, churnTicks, passIntervalMs, arrivalsPerTick);
  }

  private List<Contender> contenders() throws BadInputException {
    List<Contender> out = new ArrayList<>();
    for (String name : schedulers.split(",", -1)) {
      String n = name.trim().toLowerCase(Locale.ROOT);
      Contender c = null;
      for (Contender k : Contender.values()) {
        if (k.label().equals(n)) {
          c = k;
        }
      }
      if (c == null) {
        throw new BadInputException("--schedulers: unknown scheduler '" + name
            + "'; known: hare, capacity");
      }
      if (out.contains(c)) {
        throw new BadInputException("--schedulers: " + n + " is listed twice");
      }
      out.add(c);
    }
    return out;
  }

  private static void atLeast(String option, int value, int min) throws BadInputException {
    if (value < min) {
      throw new BadInputException(option + ": must be >= " + min + ", got " + value);
    }
  }
}
