package io.hare.demo;

import io.hare.embedded.SchedulerJournal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 */
public record DemoResult(String policy, List<Job> jobs, List<Task> tasks, List<Sync> syncs,
    List<SchedulerJournal.Entry> journal, Map<String, Integer> gpusByHost,
    Map<String, String> typeByHost) {

  /** One job as YARN reported it, and whether its trained model equals the reference. */
  public record Job(String appId, String name, double weight, String model, int rounds,
      int tasksPerRound, long submitMs, long finishMs, String finalState,
      boolean modelMatchesReference) {

    public boolean succeeded() {
      return "SUCCEEDED".equals(finalState);
    }

    public double jctS() {
      return (finishMs - submitMs) / 1000.0;
    }
  }

  /**
   * One task attempt; {@code gpu} is the GPU slot of its node it ran in (0-based), assigned from
   * the start and end times since YARN does not name the GPU of a static GPU count.
   *
   * @param state SUCCEEDED (exit 0), FAILED (another exit code) or LOST (no end recorded)
   */
  public record Task(String appId, int round, int index, String node, String gpuType, int gpu,
      String containerId, long startMs, long endMs, String state) {}

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
  }

  /** Sum over jobs of weight x (finish - submit), seconds. */
  public double totalWeightedJctS() {
    return jobs.stream().mapToDouble(j -> j.weight() * j.jctS()).sum();
  }

  public boolean allSucceeded() {
    return jobs.stream().allMatch(Job::succeeded);
  }

  public boolean allModelsMatch() {
    return jobs.stream().allMatch(Job::modelMatchesReference);
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
