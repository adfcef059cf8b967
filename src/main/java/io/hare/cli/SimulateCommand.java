package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.core.ConfigException;
import io.hare.core.KnownKeys;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.queues.QueueShares;
import io.hare.sim.ProfileError;
import io.hare.sim.SimKeys;
import io.hare.sim.SimOptions;
import io.hare.sim.report.Comparison;
import io.hare.core.plan.ExactSolver;
import io.hare.core.plan.RelaxationBound;
import io.hare.sim.report.BoundSettings;
import io.hare.sim.report.ProfileErrorSettings;
import io.hare.sim.report.ComparisonRunner;
import io.hare.sim.report.ReportFiles;
import io.hare.sim.report.ResultsJson;
import io.hare.sim.report.ResultsTable;
import io.hare.sim.workload.QueueAssignment;
import io.hare.sim.workload.Workload;
import io.hare.sim.workload.WorkloadFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hare simulate}: runs policies on one workload in the simulator and prints how they
 * compare. Options and outputs are documented in the README ("Simulator") and in
 * {@code --help}. Checks every input before the first simulation starts, so a typo costs
 * nothing; throws {@link BadInputException} or {@link ConfigException} for bad input, which
 * {@link HareCommand} turns into exit code 2.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
    customSynopsis = {
        "hare simulate --cluster TYPE=N[,TYPE=N...]",
        "      (--workload paper|philly [--jobs N] [--seed S]",
        "       | --jobs-file JOBS.csv --profiles-file PROFILES.csv)",
        "      --policies POLICY[,POLICY...] [--switch-ms MS] [--out DIR] [--json]",
        "      [--exact [--exact-time-limit-s S]] [--queues FILE]",
        "      [--philly-csv FILE] [--gavel-json FILE] [-D KEY=VALUE]..."},
    description = {"Simulate scheduling policies on one workload and compare their total "
        + "weighted job completion time (JCT) with each other and with a lower bound.",
        "Prints a table, or one JSON object with --json; logs go to stderr."},
    footerHeading = "%nExit codes:%n",
    footer = {"  0  the comparison was printed",
        "  1  a simulation or writing --out failed (a bug or an I/O error; see the log)",
        "  2  bad input: options, cluster, policy names or settings, -D keys, input files"})
public final class SimulateCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(SimulateCommand.class);

  /** Prefixes of the keys {@code -D} accepts. */
  static final List<String> KEY_PREFIXES = List.of(SchedulerKeys.PREFIX, SimKeys.PREFIX);

  @Spec
  CommandSpec spec;

  @Option(names = "--cluster", required = true, paramLabel = "TYPE=N[,TYPE=N...]",
      description = "GPUs per type, e.g. v100=40,t4=40,k80=40,m60=40 (8 GPUs of a type a node).")
  String cluster;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(names = "--policies", required = true, paramLabel = "POLICY[,POLICY...]",
      description = {"Policies to compare, comma-separated, in report order: hare, hlas, "
          + "gavel-fifo, srtf, sched-homo, allox, tiresias-las, yarn-fifo (those built in), or "
          + "the class name of a SchedulingPolicy. They run in parallel threads."})
  String policies;

  @Option(names = "--switch-ms", paramLabel = "MS", defaultValue = "0",
      description = "Time a task pays before computing when its GPU last ran another job's "
          + "task (default: ${DEFAULT-VALUE}).")
  long switchMs;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Also write results.json, jct-cdf.png and per policy gantt-POLICY.png and "
          + "jobs-POLICY.csv into DIR (created if missing).")
  Path out;

  @Option(names = "--json", description = "Print one JSON object instead of the table.")
  boolean json;

  @Option(names = "--exact",
      description = "Also prove the optimum total weighted JCT with CP-SAT and print it beside "
          + "the lower bound; only for workloads of at most " + ExactSolver.MAX_TASKS
          + " tasks (rounds x tasks per round, summed over jobs) on at most "
          + ExactSolver.MAX_GPUS + " GPUs, with --switch-ms 0 and exact profiles.")
  boolean exact;

  @Option(names = "--exact-time-limit-s", paramLabel = "S", defaultValue = "60",
      description = "Time CP-SAT may take for --exact; past it the best schedule found is "
          + "printed, marked not proven (default: ${DEFAULT-VALUE}).")
  double exactTimeLimitS;

  @Option(names = "--philly-csv", paramLabel = "FILE",
      description = "Philly trace for --workload philly (else -D " + DataPaths.PHILLY_CSV
          + ", else $" + DataPaths.ENV_PHILLY_CSV + ", else " + DataPaths.DEFAULT_PHILLY_CSV
          + ").")
  Path phillyCsv;

  @Option(names = "--gavel-json", paramLabel = "FILE",
      description = "Gavel throughputs for --workload philly (else -D " + DataPaths.GAVEL_JSON
          + ", else $" + DataPaths.ENV_GAVEL_JSON + ", else " + DataPaths.DEFAULT_GAVEL_JSON
          + ").")
  Path gavelJson;

  @Option(names = "--queues", paramLabel = "FILE",
      description = {"Queues and their GPU shares, from the ResourceManager's file (yarn-site.xml "
          + "or any Hadoop configuration XML) or a properties file: only "
          + SchedulerKeys.QUEUES + " and " + SchedulerKeys.QUEUE_PREFIX + "* are read; -D "
          + "overrides them. With several queues each policy also runs with one queue, and "
          + "the report gives each queue's jobs, weighted JCT and time waiting for its "
          + "guarantee. Jobs get their queue from the jobs file's queue column, or by -D "
          + SimKeys.QUEUE_ASSIGNMENT + "=round-robin for paper and philly."})
  Path queuesFile;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "A yarn.scheduler.hare.* policy key or a yarn.hare.sim.* simulator or "
          + "workload key (repeatable; see hare-default.xml).")
  Map<String, String> settings = new LinkedHashMap<>();

  /** Exactly one workload: generated, or read from files. */
  static final class Source {
    @ArgGroup(exclusive = false, multiplicity = "1")
    Generated generated;

    @ArgGroup(exclusive = false, multiplicity = "1")
    FromFiles files;
  }

  static final class Generated {
    @Option(names = "--workload", required = true, paramLabel = "paper|philly",
        description = "paper: the paper's synthetic setting; philly: the Philly trace with "
            + "Gavel task times.")
    String kind;

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "200",
        description = "Number of jobs (philly: the first N by arrival, 0 = all; "
            + "default: ${DEFAULT-VALUE}).")
    int jobs;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "0",
        description = "Seed of the workload and, unless -D " + SchedulerKeys.SEED
            + " is given, of the policies (default: ${DEFAULT-VALUE}).")
    long seed;
  }

  static final class FromFiles {
    @Option(names = "--jobs-file", required = true, paramLabel = "JOBS.csv",
        description = "Jobs: job_id,arrival_s,weight,model,tasks_per_round,rounds.")
    Path jobs;

    @Option(names = "--profiles-file", required = true, paramLabel = "PROFILES.csv",
        description = "Task times: model,gpu_type,compute_ms,sync_ms.")
    Path profiles;
  }

  private final WorkloadSources sources;
  private final Map<String, String> env;

  public SimulateCommand() {
    this(WorkloadSources.STANDARD, System.getenv());
  }

  /** With the given workload sources and environment (tests hand in their own). */
  public SimulateCommand(WorkloadSources sources, Map<String, String> env) {
    this.sources = sources;
    this.env = Map.copyOf(env);
  }

  @Override
  public Integer call() throws Exception {
    checkKeys();
    ClusterSpec c = parseCluster();
    if (switchMs < 0) {
      throw new BadInputException("--switch-ms: must be >= 0, got " + switchMs);
    }
    QueueShares queues = readQueues();
    String assignment = QueueAssignment.read(settings);
    if (source.files != null && !assignment.equals(QueueAssignment.NONE)) {
      throw new BadInputException("-D " + SimKeys.QUEUE_ASSIGNMENT + "=" + assignment
          + ": only for --workload paper or philly; a jobs file names each job's queue in its "
          + "'" + WorkloadFiles.QUEUE + "' column");
    }
    List<SchedulingPolicy> ps = createPolicies();
    if (queues.several()) {
      List<String> refused = new ArrayList<>();
      for (SchedulingPolicy p : ps) {
        p.queuesUnsupported().ifPresent(why -> refused.add("--policies: " + p.name() + ", with "
            + SchedulerKeys.QUEUES + " set: " + why));
      }
      if (!refused.isEmpty()) {
        throw new ConfigException(refused);
      }
    }
    // the same policies once more, fresh, for the single-queue runs the queues are weighed against
    List<SchedulingPolicy> single = queues.several() ? createPolicies() : List.of();
    if (out != null) {
      prepareOut();
    }
    Workload w;
    try {
      w = loadWorkload(c);
    } catch (IOException e) {
      // The files exist and are readable (checked first), so this is malformed content that a
      // reader did not catch itself, e.g. broken CSV quoting.
      throw new BadInputException("cannot read the workload: " + e.getMessage(), e);
    }
    if (w.jobs().isEmpty()) {
      throw new BadInputException("the workload '" + w.name() + "' has no jobs");
    }
    w = QueueAssignment.apply(w, queues, assignment);
    WorkloadFiles.checkQueues(w, queues.queues().keySet(), "set them with " + SchedulerKeys.QUEUES
        + " in --queues FILE or -D");
    int threads = Math.max(1, Math.min(ps.size(), Runtime.getRuntime().availableProcessors()));
    RelaxationBound.Options bound;
    ProfileError error;
    try {
      bound = BoundSettings.read(settings);
      error = ProfileErrorSettings.read(settings, policySeed(new ArrayList<>()));
    } catch (ConfigException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    SimOptions simOptions = new SimOptions(switchMs, out != null, error).withQueues(queues);
    ExactOption exactOption = exact ? ExactOption.check(exactTimeLimitS, w, c, simOptions) : null;
    Comparison result = ComparisonRunner.run(w, c, ps, single, simOptions, threads, bound);
    if (exactOption != null) {
      result = result.withExact(exactOption.solve(w, c));
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(json ? ResultsJson.toText(result) : ResultsTable.format(result));
    stdout.flush();
    if (out != null) {
      List<Path> files = ReportFiles.write(out, result, c);
      LOG.info("wrote {} files to {}", files.size(), out.toAbsolutePath());
    }
    return HareCommand.OK;
  }

  /**
   * Refuses a key outside the two roots, and a misspelt one under them with the closest known
   * key, as the ResourceManager does: a key ignored in silence gives a run of the defaults that
   * looks like a run of the setting.
   */
  private void checkKeys() throws BadInputException, ConfigException {
    for (String k : settings.keySet()) {
      if (KEY_PREFIXES.stream().noneMatch(k::startsWith)) {
        throw new BadInputException("-D " + k + ": unknown key; simulate takes "
            + String.join("* and ", KEY_PREFIXES) + "* keys");
      }
    }
    List<String> problems = new ArrayList<>();
    new KnownKeys(Policies.keyClasses(), SchedulerKeys.PREFIX).unknown(settings.keySet())
        .forEach(p -> problems.add("-D " + p));
    new KnownKeys(SimKeys.class, SimKeys.PREFIX, "hare-sim-default.xml")
        .unknown(settings.keySet())
        .forEach(p -> problems.add("-D " + p));
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }

  /** The queue keys of --queues FILE under those of -D, read as the ResourceManager reads them. */
  private QueueShares readQueues() throws BadInputException, ConfigException {
    Map<String, String> keys = new LinkedHashMap<>();
    if (queuesFile != null) {
      keys.putAll(QueuesFile.read(queuesFile));
    }
    keys.putAll(settings);
    return QueueKeys.read(keys);
  }

  private ClusterSpec parseCluster() throws BadInputException {
    ClusterSpec c;
    try {
      c = ClusterSpec.parse(cluster);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--" + e.getMessage());
    }
    if (c.size() == 0) {
      throw new BadInputException("--cluster: " + cluster + " has no GPUs");
    }
    return c;
  }

  /** Creates every policy up front and reports all their problems at once. */
  private List<SchedulingPolicy> createPolicies() throws ConfigException {
    List<String> problems = new ArrayList<>();
    long seed = policySeed(problems);
    List<SchedulingPolicy> ps = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : policies.split(",", -1)) {
      String n = name.trim();
      if (n.isEmpty()) {
        problems.add("--policies: empty policy name in '" + policies + "'");
        continue;
      }
      if (!seen.add(n)) {
        problems.add("--policies: " + n + " is listed twice");
        continue;
      }
      try {
        SchedulingPolicy p = Policies.create(n, new PolicyConfig(settings, seed));
        if (!n.equals(p.name()) && !seen.add(p.name())) {
          // a class name and a short name of the same policy: reports are keyed by name()
          problems.add("--policies: " + n + " is policy " + p.name() + ", listed twice");
          continue;
        }
        ps.add(p);
      } catch (ConfigException e) {
        problems.addAll(e.problems());
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return ps;
  }

  private long policySeed(List<String> problems) {
    String v = settings.get(SchedulerKeys.SEED);
    if (v == null) {
      return source.generated != null ? source.generated.seed : SchedulerKeys.DEFAULT_SEED;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      problems.add(SchedulerKeys.SEED + ": must be an integer, got '" + v + "'");
      return SchedulerKeys.DEFAULT_SEED;
    }
  }

  private void prepareOut() throws BadInputException {
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new BadInputException("--out " + out + ": exists and is not a directory");
    }
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new BadInputException("--out " + out + ": cannot create the directory: " + e);
    }
  }

  private Workload loadWorkload(ClusterSpec c) throws BadInputException, IOException {
    if (source.files != null) {
      Path jobs = readable(source.files.jobs, "--jobs-file");
      Path profiles = readable(source.files.profiles, "--profiles-file");
      return sources.files(jobs, profiles, c);
    }
    Generated g = source.generated;
    switch (g.kind) {
      case "paper" -> {
        if (g.jobs < 1) {
          throw new BadInputException("--jobs: must be >= 1 for the paper workload, got "
              + g.jobs);
        }
        try {
          return sources.paper(c, g.jobs, g.seed, settings);
        } catch (IllegalArgumentException e) {
          // The generator has no checked exception: a bad yarn.hare.sim.paper.* value lands
          // here, its message naming the paper workload already
          throw new BadInputException(e.getMessage());
        }
      }
      case "philly" -> {
        if (g.jobs < 0) {
          throw new BadInputException("--jobs: must be >= 0 (0 = the whole trace), got "
              + g.jobs);
        }
        DataPaths.Resolved csv = DataPaths.resolve(phillyCsv, "--philly-csv", settings,
            DataPaths.PHILLY_CSV, env, DataPaths.ENV_PHILLY_CSV, DataPaths.DEFAULT_PHILLY_CSV);
        DataPaths.Resolved gavel = DataPaths.resolve(gavelJson, "--gavel-json", settings,
            DataPaths.GAVEL_JSON, env, DataPaths.ENV_GAVEL_JSON, DataPaths.DEFAULT_GAVEL_JSON);
        return sources.philly(readable(csv.path(), "Philly trace from " + csv.source()),
            readable(gavel.path(), "Gavel throughputs from " + gavel.source()), c, g.jobs,
            g.seed, settings);
      }
      default -> throw new BadInputException("--workload: must be paper or philly, got '"
          + g.kind + "'");
    }
  }

  private static Path readable(Path p, String what) throws BadInputException {
    if (!Files.exists(p)) {
      throw new BadInputException(what + ": " + p + ": no such file");
    }
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new BadInputException(what + ": " + p + ": not a readable file");
    }
    return p;
  }
}
