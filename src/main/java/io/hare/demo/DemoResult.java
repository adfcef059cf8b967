package io.hare.demo;

import io.hare.embedded.SchedulerJournal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * What one demo run under one policy measured. Times are epoch milliseconds: jobs' submission
 * and finish times from the ResourceManager's application reports, tasks' start and end from
 * the task processes themselves ({@link io.hare.embedded.TaskEvents}).
 *
 * @param journal what the scheduler did with GPU tasks, at its own clock (empty under a
 *     scheduler other than Hare's)
 *
 * @param gpusByHost GPUs of each node, in node order
 * @param typeByHost GPU type of each node, in node order
 * @param injected the faults injected into the run, by time ({@link Injection})
 * @param mustFail names of the jobs that were made to fail
 */
public record DemoResult(String policy, List<Job> jobs, List<Task> tasks, List<Sync> syncs,
    List<SchedulerJournal.Entry> journal, Map<String, Integer> gpusByHost,
    Map<String, String> typeByHost, List<Injected> injected, Set<String> mustFail) {

  /**
   * One application as YARN reported it: a Hare job, with whether its trained model equals the
   * reference, or a stock application beside them ({@code hare demo --tenants}).
   *
   * @param diagnostics YARN's diagnostics of the application (the AM's, for a failed job)
   * @param kind {@value #HARE} for a Hare job, else the stock application's kind (e.g.
   *     {@code distributedshell}), which has no model, weight or rounds
   * @param queue the scheduler queue it ran in
   */
  public record Job(String appId, String name, double weight, String model, int rounds,
      int tasksPerRound, long submitMs, long finishMs, String finalState,
      boolean modelMatchesReference, String diagnostics, String kind, String queue) {

    /** The kind of a Hare job. */
    public static final String HARE = "hare";

    public Job {
      // a run recorded before kinds and queues were (run.json) had only Hare jobs in default
      kind = kind == null ? HARE : kind;
      queue = queue == null ? "default" : queue;
    }

    /** A Hare job of the default queue. */
    public Job(String appId, String name, double weight, String model, int rounds,
        int tasksPerRound, long submitMs, long finishMs, String finalState,
        boolean modelMatchesReference, String diagnostics) {
      this(appId, name, weight, model, rounds, tasksPerRound, submitMs, finishMs, finalState,
          modelMatchesReference, diagnostics, HARE, "default");
    }

    /** A Hare job of the default queue without diagnostics. */
    public Job(String appId, String name, double weight, String model, int rounds,
        int tasksPerRound, long submitMs, long finishMs, String finalState,
        boolean modelMatchesReference) {
      this(appId, name, weight, model, rounds, tasksPerRound, submitMs, finishMs, finalState,
          modelMatchesReference, "");
    }

    /** Whether it is a Hare job (with a model to compare), not a stock application. */
    public boolean hare() {
      return HARE.equals(kind);
    }

    public boolean succeeded() {
      return "SUCCEEDED".equals(finalState);
    }

    public double jctS() {
      return (finishMs - submitMs) / 1000.0;
    }
  }

  /**
   * One task attempt; {@code gpu} is the GPU of its node it ran in (0-based): the device its
   * process saw ({@code gpuDevice}) where every task of the node saw a device index, else a slot
   * assigned from the start and end times ({@link io.hare.embedded.GpuSlots}).
   *
   * @param state SUCCEEDED (exit 0), FAILED (another exit code) or LOST (no end recorded)
   * @param exitCode the task command's exit code; -1 when lost
   * @param goneMs for a lost attempt, when the scheduler saw its container end (killed with its
   *     AM, or its node declared lost); -1 otherwise or if it never did
   * @param gpuDevice the GPU device the task process saw ({@code HARE_GPU_DEVICE}, else
   *     {@code CUDA_VISIBLE_DEVICES}); empty if none
   */
  public record Task(String appId, int round, int index, String node, String gpuType, int gpu,
      String containerId, long startMs, long endMs, String state, int exitCode, long goneMs,
      String gpuDevice) {

    /** A task attempt whose process saw no device. */
    public Task(String appId, int round, int index, String node, String gpuType, int gpu,
        String containerId, long startMs, long endMs, String state, int exitCode,
        long goneMs) {
      this(appId, round, index, node, gpuType, gpu, containerId, startMs, endMs, state,
          exitCode, goneMs, "");
    }

    /** A task attempt that is not lost. */
    public Task(String appId, int round, int index, String node, String gpuType, int gpu,
        String containerId, long startMs, long endMs, String state, int exitCode) {
      this(appId, round, index, node, gpuType, gpu, containerId, startMs, endMs, state,
          exitCode, -1);
    }

    /** A task with the exit code its state implies (0 succeeded, 1 failed, -1 lost). */
    public Task(String appId, int round, int index, String node, String gpuType, int gpu,
        String containerId, long startMs, long endMs, String state) {
      this(appId, round, index, node, gpuType, gpu, containerId, startMs, endMs, state,
          "SUCCEEDED".equals(state) ? 0 : "FAILED".equals(state) ? 1 : -1);
    }

    /** The attempt number of the ApplicationMaster that ran it (from the container id). */
    public int amAttempt() {
      return ContainerId.fromString(containerId)
          .getApplicationAttemptId().getAttemptId();
    }
  }

  /** One run of a round's sync step in its ApplicationMaster; {@code endMs} -1 if it never
   * recorded an end. */
  public record Sync(String appId, int round, long startMs, long endMs, int exitCode) {}

  public DemoResult {
    jobs = List.copyOf(jobs);
    tasks = List.copyOf(tasks);
    syncs = List.copyOf(syncs);
    journal = List.copyOf(journal);
    gpusByHost = Collections.unmodifiableMap(new LinkedHashMap<>(gpusByHost));
    typeByHost = Collections.unmodifiableMap(new LinkedHashMap<>(typeByHost));
    injected = List.copyOf(injected);
    mustFail = Set.copyOf(mustFail);
  }

  /** A run without injected faults. */
  public DemoResult(String policy, List<Job> jobs, List<Task> tasks, List<Sync> syncs,
      List<SchedulerJournal.Entry> journal, Map<String, Integer> gpusByHost,
      Map<String, String> typeByHost) {
    this(policy, jobs, tasks, syncs, journal, gpusByHost, typeByHost, List.of(), Set.of());
  }

  /**
   * Whether every job did what it should: succeeded with the reference model, or, for a job
   * made to fail, failed.
   */
  public boolean asExpected() {
    return jobs.stream().allMatch(j -> mustFail.contains(j.name())
        ? "FAILED".equals(j.finalState())
        : j.succeeded() && (j.modelMatchesReference() || !j.hare()));
  }

  /** Sum over jobs of weight x (finish - submit), seconds. */
  public double totalWeightedJctS() {
    return jobs.stream().mapToDouble(j -> j.weight() * j.jctS()).sum();
  }

  public boolean allSucceeded() {
    return jobs.stream().allMatch(Job::succeeded);
  }

  /** Whether every Hare job's model equals its reference (stock applications have none). */
  public boolean allModelsMatch() {
    return jobs.stream().filter(Job::hare).allMatch(Job::modelMatchesReference);
  }

  /** The earliest submission, the origin of relative times in reports. */
  public long originMs() {
    return jobs.stream().mapToLong(Job::submitMs).min().orElse(0);
  }

  /** Last finish minus first submission, seconds. */
  public double makespanS() {
    return (jobs.stream().mapToLong(Job::finishMs).max().orElse(0) - originMs()) / 1000.0;
  }
}
