package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.core.queues.QueueShares;
import io.hare.demo.DemoJob;
import io.hare.demo.DemoModel;
import io.hare.demo.DemoPictures;
import io.hare.demo.DemoPrediction;
import io.hare.demo.DemoProfiles;
import io.hare.demo.DemoReport;
import io.hare.demo.DemoResult;
import io.hare.demo.DemoRun;
import io.hare.demo.DemoWorkload;
import io.hare.demo.ContendedShares;
import io.hare.demo.TenantsWorkload;
import io.hare.demo.Fault;
import io.hare.demo.FaultPlan;
import io.hare.demo.Injection;
import io.hare.demo.LoadCheck;
import io.hare.demo.Replay;
import io.hare.embedded.EmbeddedCluster;
import io.hare.sim.SimResult;
import io.hare.yarn.app.TaskMode;
import io.hare.yarn.scheduler.HareSettings;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hare demo}: the whole system on an embedded YARN cluster ({@link DemoRun}): a mixed
 * workload of example SGD jobs through the real client, ApplicationMaster, scheduler and
 * containers, under one policy and optionally a second one on the same submissions; a table per
 * job, a summary, and with {@code --out} a chart of the real placements per node and an HTML page.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs a mixed workload of example training jobs on an embedded YARN cluster "
        + "(MiniYARNCluster: a real ResourceManager with the Hare scheduler, real NodeManagers "
        + "and containers; only the GPUs are emulated) and reports each job and task.",
        "Needs nothing installed beyond Java and Maven; a source checkout's dist/bin/hare has "
        + "the embedded cluster's jars."},
    footer = {"%nFaults (--inject, comma-separated; the harness does them to the running cluster "
        + "from outside, never through switches in the scheduler or the ApplicationMaster; one "
        + "at a time, each after the cluster recovered from the one before):",
        "  rm-restart    the ResourceManager restarts while tasks run (work-preserving",
        "                recovery from a file-system state store); running tasks survive",
        "  rm-failover   the cluster runs two ResourceManagers, an HA pair with a ZooKeeper",
        "                state store; the active one stops while tasks run, the standby",
        "                takes over by itself, and running tasks survive (not with",
        "                rm-restart)",
        "  am-failure    a job's ApplicationMaster is killed during a round after its",
        "                first; the next attempt resumes after the last finished round",
        "  node-loss     a NodeManager running tasks (and no ApplicationMaster) vanishes;",
        "                its tasks are lost and run again on other nodes",
        "  task-failure  one task's first attempt exits 3 and is retried; an extra job",
        "                'always-fails', whose task exits 7, ends FAILED naming the task,",
        "                its exit code and its log",
        "With --inject, the text lists what was injected when, and the JSON adds \"injected\": "
        + "[{\"fault\", \"at_ms\", \"detail\", \"containers\"}] (tasks already lists every "
        + "attempt with its state: SUCCEEDED, FAILED or LOST).",
        "%nTenants (--tenants): queues team-a and team-b, guaranteed 0.6 and 0.4 of the GPUs "
        + "(-D yarn.scheduler.hare.queue.Q.guaranteed-gpu-share=S changes them), each get a "
        + "stream of Hare jobs, alternating, one every --gap-ms (1000 by default); a stock "
        + "distributedshell (two containers of `sleep`, no GPUs) runs beside them in default. "
        + "The report adds, per queue, the GPU-seconds its tasks ran while every queue had GPU "
        + "tasks waiting, against what its guarantee promised there (share x GPUs x time), and "
        + "what the scheduler held for its containers there; the JSON adds \"contended_s\" and "
        + "\"queues\": [{\"name\", \"guaranteed_share\", \"contended_gpu_seconds\", "
        + "\"contended_guaranteed_gpu_seconds\", \"contended_held_gpu_seconds\", "
        + "\"contended_lent_gpu_seconds\", \"contended_idle_gpu_seconds\"}] (the last two: what "
        + "its containers lacked of the guarantee, held by other queues above their own or by "
        + "no one), and each "
        + "job's \"kind\" (hare or distributedshell) and \"queue\". The target is 90 per cent "
        + "of the guarantee for each queue; the exit code does not depend on it.",
        "%nExit codes: 0 every job succeeded with the reference model (and a job made to fail "
        + "failed, a stock application beside them succeeded); 1 a job failed or its model differs from the reference, or the cluster "
        + "failed; 2 bad options."})
public final class DemoCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(DemoCommand.class);

  @Spec
  CommandSpec spec;

  @Option(names = "--policy", defaultValue = "hare", paramLabel = "POLICY",
      description = "The scheduler's policy (${DEFAULT-VALUE}), as yarn.scheduler.hare.policy.")
  String policy;

  @Option(names = "--compare", paramLabel = "POLICY",
      description = "Run the same submissions again under this policy, e.g. yarn-fifo.")
  String compare;

  @Option(names = "--jobs", defaultValue = "" + DemoWorkload.DEFAULT_JOBS, paramLabel = "N",
      description = "Jobs in the workload (${DEFAULT-VALUE}), 1 to 40.")
  int jobs;

  @Option(names = "--tenants", description = {"Two queues with different GPU guarantees, a "
      + "stream of Hare jobs in each and a stock distributedshell beside them; reports whether "
      + "each queue got its guarantee while they competed (below)."})
  boolean tenants;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Write the charts, index.html, results.json and the cluster's logs here.")
  Path out;

  @Option(names = "--json", description = "Print one JSON object on stdout instead of tables.")
  boolean json;

  @Option(names = "--nodes", defaultValue = DemoWorkload.DEFAULT_NODES,
      paramLabel = "TYPE=GPUS,...",
      description = {"One NodeManager per entry with that GPU type and count (${DEFAULT-VALUE});"
          + " types: v100, t4, k80."})
  String nodes;

  @Option(names = "--task-ms", defaultValue = "" + DemoWorkload.DEFAULT_TASK_MS,
      paramLabel = "MS",
      description = {"How long a task holds its emulated v100, after its process has started "
          + "and computed its gradient (${DEFAULT-VALUE}); slower types take their model's "
          + "slowdown times more (SgdJob task --gpu-ms)."})
  long taskMs;

  @Option(names = "--gap-ms", paramLabel = "MS",
      description = "Time between two submissions (" + DemoWorkload.DEFAULT_GAP_MS + ", with "
          + "--tenants " + TenantsWorkload.DEFAULT_GAP_MS + ").")
  Long gapMs;

  @Option(names = "--heartbeat-ms", defaultValue = "200", paramLabel = "MS",
      description = "NodeManager and ApplicationMaster heartbeat interval (${DEFAULT-VALUE}).")
  int heartbeatMs;

  @Option(names = "--timeout-s", defaultValue = "900", paramLabel = "S",
      description = "Kill the jobs still running after this long, per policy (${DEFAULT-VALUE}).")
  long timeoutS;

  @Option(names = "--inject", paramLabel = "FAULT,...",
      description = {"Inject these faults into each run: rm-restart, rm-failover, am-failure, "
          + "node-loss, task-failure (below). Jobs then get 2 ApplicationMaster attempts."})
  String inject;

  @Option(names = "--task-mode", defaultValue = "resident", paramLabel = "MODE",
      description = {"How the jobs' containers run tasks (${DEFAULT-VALUE}): resident (one "
          + "SgdJob worker per container takes task after task) or process (a JVM per task); "
          + "jobs whose tasks --inject task-failure rewrites run as processes."})
  String taskMode;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "A scheduler setting (yarn.scheduler.hare.*), repeatable.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    List<EmbeddedCluster.Node> cluster = parseNodes(nodes);
    Set<Fault> faults = inject == null ? Set.of() : Fault.parse(inject);
    checkOptions();
    EmbeddedJars.require("hare demo");
    Path jar = EmbeddedJars.ownJar();
    Path dir = out != null ? out : Files.createTempDirectory("hare-demo");
    long gap = gapMs();
    List<DemoJob> workload = tenants ? TenantsWorkload.jobs(jobs, gap)
        : DemoWorkload.jobs(jobs, gap);
    int gpus = cluster.stream().mapToInt(EmbeddedCluster.Node::gpus).sum();
    DemoProfiles profiles = DemoProfiles.calibrate(dir.toFile(), gpus, heartbeatMs);
    LOG.info("a task process starts and ends in {} ms here; with all {} GPUs busy a task gets {} "
        + "of a core", String.format(Locale.ROOT, "%.0f", profiles.startupMs()), gpus,
        String.format(Locale.ROOT, "%.2f", profiles.share()));
    Map<String, String> rm = schedulerSettings();
    if (faults.isEmpty()) {
      // the demo's NodeManagers share their GPUs (no device isolation), where standby and
      // parked containers are safe: a resident worker then keeps its container across a
      // round's barrier instead of starting again in a new one
      rm.putIfAbsent(SchedulerKeys.STANDBY_ENABLED, "true");
    }
    DemoRun run = new DemoRun(new DemoRun.Settings(cluster, taskMs, heartbeatMs, heartbeatMs,
        jar, timeoutS * 1000, rm, faults.isEmpty() ? 1 : 2), profiles)
        .taskMode(TaskMode.parse(taskMode).orElseThrow());
    if (tenants) {
      run.beside(TenantsWorkload.beside(gap, TenantsWorkload.SHELL_SLEEP_S));
    }
    List<DemoResult> runs = new ArrayList<>();
    List<Replay.Outcome> replays = new ArrayList<>();
    Map<String, DemoReport.Notes> notes = new LinkedHashMap<>();
    try {
      long startupMs = DemoPrediction.startupOf(run.warmUp(policy,
          dir.resolve("warm-up").toFile()));
      for (String p : compare == null ? List.of(policy) : List.of(policy, compare)) {
        File runDir = dir.resolve(safe(p)).toFile();
        DemoResult r = run.run(p, workload, runDir, faults.isEmpty() ? Injection.NONE
            : new FaultPlan(faults));
        runs.add(r);
        // the whole run, the scheduler's journal included, to replay or inspect it later
        new com.fasterxml.jackson.databind.ObjectMapper().writeValue(new File(runDir, "run.json"),
            r);
        HareSettings scheduler = HareSettings.read(run.schedulerConf(p, runDir));
        // a retried or recovered task is one the simulator does not know
        boolean simulate = faults.isEmpty();
        QueueShares shares = QueueKeys.read(rm);
        Replay.Outcome replay = simulate ? Replay.of(r, scheduler, shares)
            : new Replay.Outcome(List.of(), "faults were injected");
        replays.add(replay);
        // what the same policy core predicts without YARN; not with faults, which add jobs and
        // retries the simulator does not model
        ContendedShares.Figures queues = tenants
            ? ContendedShares.of(r, TenantsWorkload.shares(shares, cluster)) : null;
        notes.put(p, new DemoReport.Notes(simulate ? predicted(workload, cluster,
            run.schedulerProfiles(), scheduler, startupMs, shares) : null,
            LoadCheck.warning(r, taskMs).orElse(null), queues, replay));
      }
    } finally {
      if (out == null) {
        FileUtil.fullyDelete(dir.toFile());
      }
    }
    report(runs, replays, notes);
    boolean ok = runs.stream().allMatch(DemoResult::asExpected);
    return ok ? HareCommand.OK : HareCommand.FAILURE;
  }

  /**
   * The simulator's total weighted JCT for the workload on the demo's cluster under the run's
   * policy and settings, with the profile the scheduler was given; null if a job never finished.
   */
  private Double predicted(List<DemoJob> workload, List<EmbeddedCluster.Node> cluster,
      DemoProfiles profiles, HareSettings scheduler, long startupMs, QueueShares queues) {
    SimResult s = DemoPrediction.simulate(workload, cluster, profiles.table(taskMs),
        scheduler.newPolicy(), startupMs, queues);
    return s.unfinishedJobs() == 0 ? s.totalWeightedJctS() : null;
  }

  private void report(List<DemoResult> runs, List<Replay.Outcome> replays,
      Map<String, DemoReport.Notes> notes) throws IOException {
    PrintWriter stdout = spec.commandLine().getOut();
    StringWriter text = new StringWriter();
    PrintWriter t = new PrintWriter(text);
    for (DemoResult r : runs) {
      DemoReport.printJobs(r, t);
    }
    DemoReport.printSummary(runs, notes, t);
    DemoReport.printReplays(runs, replays, t);
    t.flush();
    String json = DemoReport.json(runs.get(0), runs.size() > 1 ? Optional.of(runs.get(1))
        : Optional.empty(), notes);
    if (out != null) {
      Files.writeString(out.resolve("results.json"), json);
      List<Path> files = DemoPictures.write(out, runs, text.toString());
      text.write(System.lineSeparator() + "wrote " + files.stream().map(Path::toString)
          .reduce((a, b) -> a + ", " + b).orElse("") + System.lineSeparator());
    }
    stdout.print(this.json ? json + System.lineSeparator() : text.toString());
    stdout.flush();
  }

  private long gapMs() {
    return gapMs != null ? gapMs : tenants ? TenantsWorkload.DEFAULT_GAP_MS
        : DemoWorkload.DEFAULT_GAP_MS;
  }

  /** The RM's settings: the user's, over the tenants' queues with --tenants. */
  private Map<String, String> schedulerSettings() {
    return tenants ? TenantsWorkload.schedulerSettings(settings)
        : new LinkedHashMap<>(settings);
  }

  private void checkOptions() throws BadInputException, ConfigException {
    List<String> problems = new ArrayList<>();
    if (tenants && inject != null) {
      problems.add("--inject: not with --tenants");
    }
    if (tenants && settings.containsKey(SchedulerKeys.QUEUES)) {
      problems.add("-D " + SchedulerKeys.QUEUES + ": --tenants sets the queues ("
          + String.join(",", TenantsWorkload.SHARES.keySet()) + "); set their guarantees with -D "
          + SchedulerKeys.QUEUE_PREFIX + "Q.guaranteed-gpu-share or its per-type form "
          + SchedulerKeys.QUEUE_PREFIX + "Q.guaranteed-gpu-share.TYPE");
    }
    if (jobs < 1 || jobs > 40) {
      problems.add("--jobs: must be from 1 to 40, got " + jobs);
    }
    if (taskMs < 1 || taskMs > 600_000) {
      problems.add("--task-ms: must be from 1 to 600000, got " + taskMs);
    }
    if (gapMs() < 0) {
      problems.add("--gap-ms: must be >= 0, got " + gapMs);
    }
    if (heartbeatMs < 10 || heartbeatMs > 60_000) {
      problems.add("--heartbeat-ms: must be from 10 to 60000, got " + heartbeatMs);
    }
    if (timeoutS < 1) {
      problems.add("--timeout-s: must be >= 1, got " + timeoutS);
    }
    if (TaskMode.parse(taskMode).isEmpty()) {
      problems.add("--task-mode: process or resident, got " + taskMode);
    }
    if (policy.equals(compare)) {
      problems.add("--compare: the same policy as --policy (" + policy + ")");
    }
    for (String key : settings.keySet()) {
      if (!key.startsWith(SchedulerKeys.PREFIX) || key.equals(SchedulerKeys.POLICY)) {
        problems.add("-D " + key + ": only " + SchedulerKeys.PREFIX + "* settings other than "
            + SchedulerKeys.POLICY + " (use --policy)");
      }
    }
    if (!problems.isEmpty()) {
      throw new BadInputException(String.join(System.lineSeparator(), problems));
    }
    for (String p : compare == null ? List.of(policy) : List.of(policy, compare)) {
      Configuration c = new Configuration(false);
      schedulerSettings().forEach(c::set);
      c.set(SchedulerKeys.POLICY, p);
      HareSettings.read(c); // the RM's own validation: every problem at once
    }
  }

  static List<EmbeddedCluster.Node> parseNodes(String text) throws BadInputException {
    List<EmbeddedCluster.Node> out = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      String[] kv = item.strip().split("=", -1);
      int gpus = -1;
      if (kv.length == 2) {
        try {
          gpus = Integer.parseInt(kv[1].strip());
        } catch (NumberFormatException e) {
          // reported below
        }
      }
      String type = kv[0].strip().toLowerCase(Locale.ROOT);
      if (kv.length != 2 || !DemoModel.TYPES.contains(type) || gpus < 1 || gpus > 8) {
        throw new BadInputException("--nodes: '" + item.strip() + "' is not TYPE=GPUS with TYPE"
            + " one of " + DemoModel.TYPES + " and GPUS from 1 to 8 (e.g. v100=1,t4=2,k80=2)");
      }
      out.add(new EmbeddedCluster.Node(type, gpus));
    }
    if (out.size() > 8) {
      throw new BadInputException("--nodes: at most 8 NodeManagers, got " + out.size());
    }
    return out;
  }

  private static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
