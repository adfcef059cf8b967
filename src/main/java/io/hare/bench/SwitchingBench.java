package io.hare.bench;

import io.hare.core.BadInputException;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.example.ContainerJava;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.TaskMode;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the switching benchmark: an {@link EmbeddedCluster} under a given scheduler, a mixed
 * workload of jobs whose tasks sleep a fixed time (so the two CPUs measure YARN's own costs, not
 * the tasks' work), submitted together through the real client and run by the real AM; then
 * the gaps between consecutive tasks on each GPU slot as the tasks recorded them
 * ({@link SwitchGaps}), from when every job's AM has registered (and asked for its round: from
 * then on the jobs' tasks outnumber the GPUs) to the first job's end (when demand starts to
 * fall).
 *
 * <p>Blocking; one run per JVM at a time (see {@link EmbeddedCluster}).
 */
public final class SwitchingBench {

  private static final Logger LOG = LoggerFactory.getLogger(SwitchingBench.class);
  private static final EnumSet<YarnApplicationState> ENDED = EnumSet.of(
      YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);
  /**
   * The workload and the intervals.
   *
   * @param taskMs how long each task sleeps
   * @param jobs jobs submitted together
   * @param rounds rounds per job
   * @param tasksPerRound k of job j: the (j mod size)-th
   * @param heartbeatMs the AMs' and NodeManagers' heartbeat interval
   * @param nodes NodeManagers, each with {@code gpusPerNode} GPUs
   * @param mode process: each task sleeps in a process of its own; resident: each container
   *     runs the example job's worker ({@code SgdJob worker}), its GPU paced to the task time
   */
  public record Workload(long taskMs, int jobs, int rounds, List<Integer> tasksPerRound,
      int heartbeatMs, int nodes, int gpusPerNode, Path jar, long timeoutMs, TaskMode mode) {

    public Workload {
      tasksPerRound = List.copyOf(tasksPerRound);
      if (tasksPerRound.isEmpty()) {
        throw new IllegalArgumentException("tasksPerRound: at least one k");
      }
    }

    /** k of job {@code j}. */
    public int k(int j) {
      return tasksPerRound.get(j % tasksPerRound.size());
    }
  }

  /** What one run measured. */
  public record Result(String scheduler, SwitchGaps gaps, int attempts, int failedJobs) {}

  private final Workload w;

  public SwitchingBench(Workload w) {
    this.w = w;
  }

  /**
   * Runs the workload on a fresh cluster whose ResourceManager takes {@code rmSettings} (the
   * scheduler class and its settings) and whose jobs take {@code jobSettings}.
   */
  public Result run(String name, Map<String, String> rmSettings, Map<String, String> jobSettings,
      File dir) throws Exception {
    // the tasks append their events: a directory left by an earlier run would mix two runs
    org.apache.hadoop.fs.FileUtil.fullyDelete(dir);
    Configuration rm = new Configuration(false);
    rm.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, w.heartbeatMs());
    rmSettings.forEach(rm::set);
    List<EmbeddedCluster.Node> nodes = new ArrayList<>();
    List<String> types = List.of("v100", "t4", "k80");
    for (int i = 0; i < w.nodes(); i++) {
      nodes.add(new EmbeddedCluster.Node(types.get(i % types.size()), w.gpusPerNode()));
    }
    List<Path> events = new ArrayList<>();
    List<ApplicationId> ids = new ArrayList<>();
    LOG.info("{}: {} jobs of {} rounds x {} tasks of {} ms on {} nodes x {} GPUs", name, w.jobs(),
        w.rounds(), w.tasksPerRound(), w.taskMs(), w.nodes(), w.gpusPerNode());
    try (EmbeddedCluster cluster = EmbeddedCluster.start(new File(dir, "cluster"),
        "hare-bench-" + name, nodes, rm);
        YarnApps apps = YarnClientApps.open(cluster.conf())) {
      for (int j = 0; j < w.jobs(); j++) {
        Path e = dir.toPath().resolve("jobs/job-" + j + "/events.txt");
        Files.createDirectories(e.getParent());
        events.add(e);
        ids.add(new JobSubmitter(apps, cluster.conf()).submit(JobSpecValidator.read(spec(j, e,
            new File(dir, "staging"), jobSettings))));
      }
      long[] window = await(apps, ids);
      // what the scheduler did, for whoever wants to see where a gap went (Hare only)
      new com.fasterxml.jackson.databind.ObjectMapper().writeValue(new File(dir,
          "journal.json"), cluster.journal().entries());
      List<TaskEvents.Attempt> attempts = new ArrayList<>();
      for (Path e : events) {
        attempts.addAll(TaskEvents.read(e).attempts());
      }
      int failed = 0;
      for (ApplicationId id : ids) {
        ApplicationReport r = apps.report(id);
        if (!"SUCCEEDED".equals(r.getFinalApplicationStatus().name())) {
          failed++;
        }
      }
      return new Result(name, SwitchGaps.of(attempts, window[0], window[1]), attempts.size(),
          failed);
    }
  }

  private Configuration spec(int j, Path events, File staging, Map<String, String> jobSettings)
      throws BadInputException {
    Configuration c = new Configuration(false);
    c.set(AppKeys.JOB_NAME, "switch-" + j);
    c.setInt(AppKeys.JOB_ROUNDS, w.rounds());
    c.setInt(AppKeys.JOB_TASKS_PER_ROUND, w.k(j));
    c.set(AppKeys.JOB_STAGING_DIR, staging.getAbsolutePath());
    if (w.mode() == TaskMode.RESIDENT) {
      Path work = events.resolveSibling("work");
      StringWriter out = new StringWriter();
      if (SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
          .execute("init", "--work-dir", work.toString()) != SgdJob.OK) {
        throw new IllegalStateException("SgdJob init: " + out);
      }
      String java = ContainerJava.sgdJob();
      String where = " --work-dir '" + work + "'";
      c.set(AppKeys.TASK_MODE, TaskMode.RESIDENT.key());
      c.set(AppKeys.TASK_COMMAND, java + " worker" + where + " --gpu-ms " + w.taskMs()
          + " --events '" + events + "'");
      c.set(AppKeys.SYNC_COMMAND, TaskEvents.wrapSync(java + " sync" + where, events));
    } else {
      String sleep = String.format(java.util.Locale.ROOT, "sleep %.3f", w.taskMs() / 1000.0);
      c.set(AppKeys.TASK_COMMAND, TaskEvents.wrapTask(sleep, events));
      c.set(AppKeys.SYNC_COMMAND, TaskEvents.wrapSync("true", events));
    }
    c.setInt(AppKeys.TASK_MEMORY_MB, 128);
    c.setInt(AppKeys.AM_MEMORY_MB, 256);
    c.setInt(AppKeys.AM_MAX_ATTEMPTS, 1);
    c.setInt(AppKeys.TASK_MAX_ATTEMPTS, 1);
    c.setInt(AppKeys.AM_HEARTBEAT_INTERVAL_MS, w.heartbeatMs());
    c.set(AppKeys.AM_JAVA_OPTS, ContainerJava.LEAN_OPTS);
    c.set(AppKeys.AM_JAR, w.jar().toString());
    jobSettings.forEach(c::set);
    return c;
  }

  /**
   * Waits for every job; returns the busy window: when the RM was first seen to have every job's
   * AM registered (RUNNING, after which each AM asks its round at once, so demand exceeds the
   * GPUs), and the first job's finish time.
   */
  private long[] await(YarnApps apps, List<ApplicationId> ids) throws Exception {
    long deadline = System.currentTimeMillis() + w.timeoutMs();
    Set<ApplicationId> registered = new HashSet<>();
    long allRegistered = Long.MAX_VALUE;
    while (true) {
      long firstEnd = Long.MAX_VALUE;
      int done = 0;
      long now = System.currentTimeMillis();
      for (ApplicationId id : ids) {
        ApplicationReport r = apps.report(id);
        if (r.getYarnApplicationState() == YarnApplicationState.RUNNING
            || ENDED.contains(r.getYarnApplicationState())) {
          registered.add(id);
        }
        if (ENDED.contains(r.getYarnApplicationState())) {
          done++;
          firstEnd = Math.min(firstEnd, r.getFinishTime());
        }
      }
      if (registered.size() == ids.size() && allRegistered == Long.MAX_VALUE) {
        allRegistered = now;
      }
      if (done == ids.size()) {
        return new long[] {allRegistered, firstEnd};
      }
      if (System.currentTimeMillis() > deadline) {
        for (ApplicationId id : ids) {
          apps.kill(id);
        }
        throw new IllegalStateException("the benchmark's jobs did not end within "
            + w.timeoutMs() + " ms");
      }
      Thread.sleep(200); // polling the RM, as `hare submit` does
    }
  }

  /** RM settings of stock CapacityScheduler at its best for this workload (README). */
  public static Map<String, String> capacityScheduler() {
    return Map.ofEntries(
        Map.entry(YarnConfiguration.RM_SCHEDULER,
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler"),
        Map.entry("yarn.scheduler.capacity.resource-calculator",
            "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"),
        Map.entry("yarn.scheduler.capacity.root.queues", "default"),
        Map.entry("yarn.scheduler.capacity.root.default.capacity", "100"),
        Map.entry("yarn.scheduler.capacity.root.default.maximum-capacity", "100"),
        Map.entry("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5"),
        // every free GPU of a heartbeating node filled in that heartbeat, no locality waits
        Map.entry("yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled",
            "true"),
        Map.entry("yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments",
            "-1"),
        Map.entry("yarn.scheduler.capacity.node-locality-delay", "0"));
  }
}
