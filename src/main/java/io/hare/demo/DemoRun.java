package io.hare.demo;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.GpuSlots;
import io.hare.embedded.SchedulerJournal;
import io.hare.embedded.TaskEvents;
import io.hare.example.ContainerJava;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.HareJobSpec;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.TaskMode;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One demo run: an {@link EmbeddedCluster} under one policy, the workload's example SGD jobs
 * initialised and submitted through the real client ({@link JobSubmitter}) at their offsets, run
 * by the real ApplicationMaster, then what happened read back: the RM's application reports,
 * the task processes' own start and end times ({@link TaskEvents}), and each final model
 * compared byte for byte with the one-process reference.
 *
 * <p>Each task command is {@code SgdJob task} with the model's {@link DemoModel#typeFactors} so
 * slower GPU types really compute longer; the scheduler gets a profile of those times
 * ({@link DemoProfiles}) and refines it from the measured containers, as on a real cluster.
 *
 * <p>Each job goes to its {@link DemoJob#queue}; {@link #beside} adds stock applications
 * ({@link StockApplication}) that run beside the jobs and are reported with them by their kind.
 *
 * <p>Blocking and single-threaded; one run per JVM at a time (see {@link EmbeddedCluster}).
 */
public final class DemoRun {

  private static final Logger LOG = LoggerFactory.getLogger(DemoRun.class);
  private static final String EVENTS = "events.txt";
  /** How often the run asks the RM about its jobs and polls the injection. */
  private static final long POLL_MS = 100;
  private static final EnumSet<YarnApplicationState> ENDED = EnumSet.of(
      YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  /**
   * How the demo cluster and its jobs are set up.
   *
   * @param nodes one NodeManager each
   * @param gpuMs how long a task holds its emulated GPU on the fastest type (a V100), ms; on a
   *     slower type its model's slowdown times that ({@link DemoModel})
   * @param amHeartbeatMs the AMs' heartbeat interval
   * @param nmHeartbeatMs the NodeManagers' heartbeat interval
   * @param jar the Hare jar the AMs and tasks run from
   * @param timeoutMs how long the jobs may take in all before the run kills them
   * @param settings more ResourceManager settings (e.g. {@code yarn.scheduler.hare.*})
   * @param amMaxAttempts ApplicationMaster attempts of each job (the job's
   *     {@code am.max-attempts} and the RM's {@code yarn.resourcemanager.am.max-attempts}): 1
   *     unless a fault run kills AMs, so that a crashing AM is not hidden by a silent retry
   */
  public record Settings(List<EmbeddedCluster.Node> nodes, long gpuMs, int amHeartbeatMs,
      int nmHeartbeatMs, Path jar, long timeoutMs, Map<String, String> settings,
      int amMaxAttempts) {

    public Settings {
      nodes = List.copyOf(nodes);
      settings = Map.copyOf(settings);
      if (amMaxAttempts < 1) {
        throw new IllegalArgumentException("amMaxAttempts must be >= 1, got " + amMaxAttempts);
      }
    }

    /** Settings with one AM attempt per job. */
    public Settings(List<EmbeddedCluster.Node> nodes, long gpuMs, int amHeartbeatMs,
        int nmHeartbeatMs, Path jar, long timeoutMs, Map<String, String> settings) {
      this(nodes, gpuMs, amHeartbeatMs, nmHeartbeatMs, jar, timeoutMs, settings, 1);
    }
  }

  private final Settings settings;
  private final DemoProfiles profiles;
  private TaskMode taskMode = TaskMode.RESIDENT;
  private List<StockApplication> stock = List.of();

  public DemoRun(Settings settings, DemoProfiles profiles) {
    this.settings = settings;
    this.profiles = profiles;
  }

  /**
   * Runs the jobs under {@code policy} in a fresh cluster whose files go under {@code dir}.
   *
   * @throws BadInputException a job spec the client refuses (a bug in the demo's specs)
   */
  public DemoResult run(String policy, List<DemoJob> jobs, File dir) throws Exception {
    return run(policy, jobs, dir, Injection.NONE);
  }

  /**
   * Runs the jobs under {@code policy} with {@code injection} breaking things from outside
   * (it may add jobs and change task commands; it is polled while the jobs run).
   *
   * @throws BadInputException a job spec the client refuses (a bug in the demo's specs)
   */
  public DemoResult run(String policy, List<DemoJob> workload, File dir, Injection injection)
      throws Exception {
    return run(policy, workload, dir, injection, stock);
  }

  private DemoResult run(String policy, List<DemoJob> workload, File dir, Injection injection,
      List<StockApplication> stock) throws Exception {
    Files.createDirectories(dir.toPath());
    schedulerProfiles().write(profileFile(dir), settings.gpuMs());
    List<DemoJob> jobs = injection.jobs(workload);
    Configuration rm = schedulerConf(policy, dir);
    rm.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, settings.nmHeartbeatMs());
    rm.setInt(YarnConfiguration.RM_AM_MAX_ATTEMPTS, settings.amMaxAttempts());
    injection.clusterSettings(dir).forEach(rm::set);
    Map<String, File> workDirs = new LinkedHashMap<>();
    for (DemoJob j : jobs) {
      workDirs.put(j.name(), init(new File(dir, "jobs/" + j.name()), j));
    }
    LOG.info("starting an embedded YARN cluster ({} NodeManagers) under policy {}",
        settings.nodes().size(), policy);
    try (EmbeddedCluster cluster = EmbeddedCluster.start(new File(dir, "cluster"),
        "hare-demo-" + policy, settings.nodes(), rm, injection.resourceManagers());
        YarnApps apps = YarnClientApps.open(cluster.conf())) {
      LiveRun live = new LiveRun(cluster, workDirs);
      Map<StockApplication, ApplicationId> stockIds = new LinkedHashMap<>();
      try {
        submitAll(apps, cluster.conf(), jobs, stock, workDirs, dir, injection, live, stockIds);
        awaitAll(apps, live, injection, stockIds.values());
        injection.finish(live);
        List<DemoResult.Job> others = new ArrayList<>();
        for (Map.Entry<StockApplication, ApplicationId> e : stockIds.entrySet()) {
          others.add(stockJob(e.getKey(), e.getValue(), apps.report(e.getValue())));
        }
        return collect(policy, cluster, apps, live.submitted(), workDirs, injection, others);
      } finally {
        stock.forEach(StockApplication::cleanUp);
      }
    }
  }

  /** Runs {@code apps} beside the jobs of every later run, each at its own offset. */
  public DemoRun beside(List<StockApplication> apps) {
    this.stock = List.copyOf(apps);
    return this;
  }

  private static DemoResult.Job stockJob(StockApplication a, ApplicationId id,
      ApplicationReport r) {
    boolean finished = r.getYarnApplicationState() == YarnApplicationState.FINISHED;
    String state = finished ? r.getFinalApplicationStatus().name()
        : r.getYarnApplicationState().name();
    // no weight: a stock application adds nothing to the Hare jobs' weighted JCT
    return new DemoResult.Job(id.toString(), a.name(), 0, "-", 0, 0, r.getStartTime(),
        r.getFinishTime(), state, false, r.getDiagnostics(), a.kind(), r.getQueue());
  }

  static Path eventsFile(File workDir) {
    return workDir.toPath().resolve(EVENTS);
  }

  /**
   * The scheduler settings of a run of {@code policy} in {@code dir}: what its ResourceManager
   * reads, and what a replay needs.
   */
  public Configuration schedulerConf(String policy, File dir) {
    Configuration c = new Configuration(false);
    settings.settings().forEach(c::set);
    c.set(SchedulerKeys.POLICY, policy);
    c.set(SchedulerKeys.PROFILES_FILE, profileFile(dir).toString());
    return c;
  }

  private static Path profileFile(File dir) {
    return dir.toPath().resolve("profiles.csv");
  }

  /**
   * One job of one task on a throw-away cluster, so that every measured run finds this JVM's
   * ResourceManager and NodeManager code compiled and the files cached: otherwise the first
   * policy of a comparison pays the cold start and looks seconds worse.
   */
  public DemoResult warmUp(String policy, File dir) throws Exception {
    LOG.info("warming up: one job of one task on a throw-away cluster");
    return run(policy, List.of(new DemoJob("warm-up", DemoModel.GRAPHSAGE, 1, 1, 1, 0, 1)),
        dir, Injection.NONE, List.of());
  }

  private static File init(File workDir, DemoJob j) throws IOException {
    if (Files.exists(workDir.toPath())) {
      org.apache.hadoop.fs.FileUtil.fullyDelete(workDir); // a rerun starts from round 0
    }
    int code = sgd("init", "--work-dir", workDir.getAbsolutePath(), "--seed",
        Integer.toString(j.seed()));
    if (code != SgdJob.OK) {
      throw new IOException("SgdJob init of " + j.name() + " in " + workDir + " exited " + code);
    }
    return workDir;
  }

  private void submitAll(YarnApps apps, YarnConfiguration client, List<DemoJob> jobs,
      List<StockApplication> stock, Map<String, File> workDirs, File dir, Injection injection,
      LiveRun live, Map<StockApplication, ApplicationId> stockIds) throws Exception {
    long t0 = System.currentTimeMillis();
    List<StockApplication> due = new ArrayList<>(stock);
    due.sort(java.util.Comparator.comparingLong(StockApplication::submitAtMs));
    for (DemoJob j : jobs) {
      // the workload's arrival process, in real time
      while (System.currentTimeMillis() < t0 + j.submitAtMs()) {
        submitDue(due, t0, client, dir, stockIds);
        injection.poll(live);
        Thread.sleep(Math.max(1, Math.min(POLL_MS,
            t0 + j.submitAtMs() - System.currentTimeMillis())));
      }
      submitDue(due, t0, client, dir, stockIds);
      HareJobSpec spec = spec(j, workDirs.get(j.name()), new File(dir, "staging"), injection);
      ApplicationId id = new JobSubmitter(apps, client).submit(spec);
      LOG.info("submitted {} as {}: {} rounds of {} tasks, weight {}, model {}", j.name(), id,
          j.rounds(), j.tasksPerRound(), j.weight(), j.model().name());
      live.submitted(j, id);
    }
    for (StockApplication a : due) {
      while (System.currentTimeMillis() < t0 + a.submitAtMs()) {
        injection.poll(live);
        Thread.sleep(Math.max(1, Math.min(POLL_MS,
            t0 + a.submitAtMs() - System.currentTimeMillis())));
      }
      stockIds.put(a, a.submit(client, dir));
    }
  }

  /** Submits, and takes off {@code due} (by offset), the stock applications due now. */
  private static void submitDue(List<StockApplication> due, long t0, YarnConfiguration client,
      File dir, Map<StockApplication, ApplicationId> stockIds)
      throws IOException, InterruptedException {
    while (!due.isEmpty() && System.currentTimeMillis() >= t0 + due.get(0).submitAtMs()) {
      StockApplication a = due.remove(0);
      stockIds.put(a, a.submit(client, dir));
    }
  }

  private HareJobSpec spec(DemoJob j, File workDir, File staging, Injection injection)
      throws BadInputException {
    String java = ContainerJava.sgdJob();
    String where = " --work-dir '" + workDir.getAbsolutePath() + "'";
    Path events = workDir.toPath().resolve(EVENTS);
    Configuration c = new Configuration(false);
    c.set(AppKeys.JOB_NAME, j.name());
    c.setInt(AppKeys.JOB_ROUNDS, j.rounds());
    c.setInt(AppKeys.JOB_TASKS_PER_ROUND, j.tasksPerRound());
    c.set(AppKeys.JOB_WEIGHT, Double.toString(j.weight()));
    c.set(AppKeys.JOB_MODEL, j.model().name());
    c.set(AppKeys.JOB_STAGING_DIR, staging.getAbsolutePath());
    c.set(AppKeys.JOB_QUEUE, j.queue());
    String args = where + " --type-factors " + j.model().typeFactors() + " --gpu-ms "
        + settings.gpuMs();
    if (resident() && !injection.rewritesTasks(j)) {
      // one worker per container, taking task after task: a task costs no JVM start
      c.set(AppKeys.TASK_MODE, TaskMode.RESIDENT.key());
      c.set(AppKeys.TASK_COMMAND, java + " worker" + args + " --events '"
          + events.toAbsolutePath().toString().replace("'", "'\\''") + "'");
    } else {
      c.set(AppKeys.TASK_MODE, TaskMode.PROCESS.key());
      c.set(AppKeys.TASK_COMMAND, TaskEvents.wrapTask(injection.taskCommand(j, workDir,
          java + " task" + args), events));
    }
    // a sync process per round (docs/task-channel.md, "The sync step's pipes": why not resident)
    c.set(AppKeys.SYNC_COMMAND, TaskEvents.wrapSync(java + " sync" + where, events));
    c.setInt(AppKeys.TASK_MEMORY_MB, 256);
    c.setInt(AppKeys.AM_MEMORY_MB, 512);
    c.setInt(AppKeys.AM_MAX_ATTEMPTS, settings.amMaxAttempts());
    c.setInt(AppKeys.AM_HEARTBEAT_INTERVAL_MS, settings.amHeartbeatMs());
    c.set(AppKeys.AM_JAVA_OPTS, ContainerJava.LEAN_OPTS);
    c.set(AppKeys.AM_JAR, settings.jar().toString());
    try {
      return JobSpecValidator.read(c);
    } catch (ConfigException e) {
      throw new BadInputException("demo job " + j.name() + ": " + String.join("; ",
          e.problems()));
    }
  }

  /** Whether the jobs run resident workers ({@code yarn.app.hare.task.mode}). */
  boolean resident() {
    return taskMode == TaskMode.RESIDENT;
  }

  /** Runs the jobs' tasks in {@code mode} from now on (resident workers unless told). */
  public DemoRun taskMode(TaskMode mode) {
    this.taskMode = mode;
    return this;
  }

  /** The profile the scheduler starts from: a resident worker's tasks start no process. */
  public DemoProfiles schedulerProfiles() {
    return resident() ? profiles.resident() : profiles;
  }

  private void awaitAll(YarnApps apps, LiveRun live, Injection injection,
      java.util.Collection<ApplicationId> others) throws Exception {
    List<ApplicationId> ids = new ArrayList<>(live.submitted().values());
    ids.addAll(others);
    long deadline = System.currentTimeMillis() + settings.timeoutMs();
    int lastDone = -1;
    while (true) {
      injection.poll(live);
      int done = 0;
      for (ApplicationId id : ids) {
        if (ENDED.contains(apps.report(id).getYarnApplicationState())) {
          done++;
        }
      }
      if (done != lastDone) {
        LOG.info("{} of {} applications ended", done, ids.size());
        lastDone = done;
      }
      if (done == ids.size()) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        LOG.warn("the jobs did not end within {} ms; killing the rest", settings.timeoutMs());
        for (ApplicationId id : ids) {
          if (!ENDED.contains(apps.report(id).getYarnApplicationState())) {
            apps.kill(id);
          }
        }
        return;
      }
      Thread.sleep(POLL_MS); // polling the RM, as `hare submit` does
    }
  }

  private DemoResult collect(String policy, EmbeddedCluster cluster, YarnApps apps,
      Map<DemoJob, ApplicationId> ids, Map<String, File> workDirs, Injection injection,
      List<DemoResult.Job> others) throws Exception {
    List<DemoResult.Job> jobs = new ArrayList<>();
    List<DemoResult.Sync> syncs = new ArrayList<>();
    Map<String, List<TaskEvents.Attempt>> byHost = new LinkedHashMap<>();
    cluster.typeByHost().keySet().forEach(h -> byHost.put(h, new ArrayList<>()));
    for (Map.Entry<DemoJob, ApplicationId> e : ids.entrySet()) {
      DemoJob j = e.getKey();
      ApplicationReport r = apps.report(e.getValue());
      File work = workDirs.get(j.name());
      boolean finished = r.getYarnApplicationState() == YarnApplicationState.FINISHED;
      String state = finished ? r.getFinalApplicationStatus().name()
          : r.getYarnApplicationState().name();
      jobs.add(new DemoResult.Job(e.getValue().toString(), j.name(), j.weight(),
          j.model().name(), j.rounds(), j.tasksPerRound(), r.getStartTime(), r.getFinishTime(),
          state, "SUCCEEDED".equals(state) && matchesReference(work, j), r.getDiagnostics(),
          DemoResult.Job.HARE, r.getQueue()));
      TaskEvents.Runs runs = TaskEvents.read(eventsFile(work));
      for (TaskEvents.Attempt a : runs.attempts()) {
        byHost.computeIfAbsent(a.host(), h -> new ArrayList<>()).add(a);
      }
      runs.syncs().forEach(s -> syncs.add(new DemoResult.Sync(s.appId(), s.round(), s.startMs(),
          s.endMs(), s.exitCode())));
    }
    jobs.addAll(others);
    List<DemoResult.Task> tasks = new ArrayList<>();
    Map<String, Integer> gpus = new LinkedHashMap<>();
    for (int i = 0; i < settings.nodes().size(); i++) {
      gpus.put(EmbeddedCluster.host(i), settings.nodes().get(i).gpus());
    }
    Map<String, Long> gone = new HashMap<>(); // when the scheduler saw each container end
    cluster.journal().entries().stream().filter(e -> e.kind() == SchedulerJournal.Kind.ENDED)
        .forEach(e -> gone.putIfAbsent(e.containerId(), e.ms()));
    byHost.forEach((host, attempts) -> {
      Map<TaskEvents.Attempt, Integer> slots = GpuSlots.devicesOrSlots(attempts, gone);
      for (TaskEvents.Attempt a : attempts) {
        tasks.add(new DemoResult.Task(a.appId(), a.round(), a.index(), host, a.gpuType(),
            slots.get(a), a.containerId(), a.startMs(), a.endMs(),
            !a.ended() ? "LOST" : a.succeeded() ? "SUCCEEDED" : "FAILED", a.exitCode(),
            a.ended() ? -1 : gone.getOrDefault(a.containerId(), -1L), a.gpuDevice()));
      }
    });
    tasks.sort(java.util.Comparator.comparingLong(DemoResult.Task::startMs));
    return new DemoResult(policy, jobs, tasks, syncs, cluster.journal().entries(), gpus,
        cluster.typeByHost(), injection.injected(), injection.mustFail());
  }

  /** Whether the job's model after R rounds is byte-identical to the one-process reference. */
  private static boolean matchesReference(File work, DemoJob j) throws IOException {
    int code = sgd("reference", "--work-dir", work.getAbsolutePath(), "--rounds",
        Integer.toString(j.rounds()), "--tasks-per-round", Integer.toString(j.tasksPerRound()));
    if (code != SgdJob.OK) {
      throw new IOException("SgdJob reference of " + j.name() + " exited " + code);
    }
    Path trained = work.toPath().resolve("model-r" + j.rounds());
    Path reference = work.toPath().resolve("reference-model-r" + j.rounds());
    return Files.exists(trained)
        && Arrays.equals(Files.readAllBytes(trained), Files.readAllBytes(reference));
  }

  private static int sgd(String... args) {
    StringWriter out = new StringWriter();
    int code = SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
        .execute(args);
    if (code != SgdJob.OK) {
      LOG.warn("SgdJob {}: {}", args[0], out);
    }
    return code;
  }
}
