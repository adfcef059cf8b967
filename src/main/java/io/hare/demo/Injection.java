package io.hare.demo;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The port through which a {@link DemoRun} lets a harness break things (fault injection), at
 * defined moments and from outside the scheduler and the ApplicationMaster: before the cluster
 * starts (its settings), when the jobs are set up (extra jobs, task commands), on each poll of
 * the running jobs (about every 100 ms), and once after every job ended. {@link #NONE} injects
 * nothing; {@link FaultPlan} is the demo's.
 */
public interface Injection {

  Injection NONE = new Injection() {};

  /** More cluster settings (ResourceManager and NodeManagers); {@code dir} is the run's. */
  default Map<String, String> clusterSettings(File dir) throws IOException {
    return Map.of();
  }

  /**
   * How many ResourceManagers the cluster runs: 1, or 2 for a high-availability pair
   * (automatic failover and a ZooKeeper state store on the cluster's own ZooKeeper server).
   */
  default int resourceManagers() {
    return 1;
  }

  /** The jobs to run, given the workload's. */
  default List<DemoJob> jobs(List<DemoJob> workload) {
    return workload;
  }

  /**
   * A job's task command, given the one the demo would run as one process per task;
   * {@code workDir} is the job's. Called only for the jobs {@link #rewritesTasks} names.
   */
  default String taskCommand(DemoJob job, File workDir, String command) {
    return command;
  }

  /**
   * Whether this injection rewrites {@code job}'s task command ({@link #taskCommand}): that job
   * then runs its tasks as processes, since the rewrite acts on each task's process, while the
   * others run resident workers.
   */
  default boolean rewritesTasks(DemoJob job) {
    return false;
  }

  /** Called about every 100 ms while jobs are submitted or run. */
  default void poll(RunView run) throws Exception {}

  /** Called once every job has ended, before the results are collected. */
  default void finish(RunView run) throws Exception {}

  /** What was injected, in order. */
  default List<Injected> injected() {
    return List.of();
  }

  /** Names of the jobs that are meant to fail. */
  default Set<String> mustFail() {
    return Set.of();
  }
}
