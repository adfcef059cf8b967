package io.hare.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a simulation produced: per-job outcomes, optionally every task, and run statistics.
 *
 * @param busyGpuMs compute time summed over all GPUs (switches excluded)
 * @param gpus number of GPUs in the cluster that some job of the workload can run on
 * @param switches tasks that paid a switch
 * @param replans number of {@code replan} calls
 * @param replanTotalNanos wall time spent in {@code replan}
 * @param replanMaxNanos longest single {@code replan}
 * @param queues how each queue fared, in the order configured ({@code default} first)
 * @param singleQueueTotalWeightedJctS the same policy's total weighted JCT on the same workload
 *     with one queue, to weigh what the guarantees cost; NaN when not measured
 */
public record SimResult(String policy, List<JobOutcome> jobs, List<TaskRecord> tasks,
    long busyGpuMs, int gpus, long switches, long replans, long replanTotalNanos,
    long replanMaxNanos, List<QueueOutcome> queues, double singleQueueTotalWeightedJctS) {

  public SimResult {
    jobs = List.copyOf(jobs);
    tasks = List.copyOf(tasks);
    queues = List.copyOf(queues);
  }

  /** Without queues. */
  public SimResult(String policy, List<JobOutcome> jobs, List<TaskRecord> tasks, long busyGpuMs,
      int gpus, long switches, long replans, long replanTotalNanos, long replanMaxNanos) {
    this(policy, jobs, tasks, busyGpuMs, gpus, switches, replans, replanTotalNanos,
        replanMaxNanos, List.of(), Double.NaN);
  }

  /**
   * The same result beside {@code single}, the same policy's run of the same workload with one
   * queue: its total weighted JCT, and each queue's jobs' part of it.
   */
  public SimResult withSingleQueue(SimResult single) {
    Map<String, String> queueOf = new HashMap<>();
    jobs.forEach(j -> queueOf.put(j.jobId(), j.queue()));
    Map<String, Double> byQueue = new HashMap<>();
    for (JobOutcome j : single.jobs()) {
      if (j.finished()) {
        byQueue.merge(queueOf.get(j.jobId()), j.weight() * j.jctS(), Double::sum);
      }
    }
    List<QueueOutcome> qs = new ArrayList<>();
    queues.forEach(q -> qs.add(q.withSingleQueue(byQueue.getOrDefault(q.name(), 0.0))));
    return new SimResult(policy, jobs, tasks, busyGpuMs, gpus, switches, replans,
        replanTotalNanos, replanMaxNanos, qs, single.totalWeightedJctS());
  }

  /** Whether the run had queues besides {@code default}. */
  public boolean severalQueues() {
    return queues.size() > 1;
  }

  public long unfinishedJobs() {
    return jobs.stream().filter(j -> !j.finished()).count();
  }

  /** Sum over finished jobs of weight x JCT, in seconds. */
  public double totalWeightedJctS() {
    return jobs.stream().filter(JobOutcome::finished).mapToDouble(j -> j.weight() * j.jctS()).sum();
  }

  public double avgJctS() {
    return jobs.stream().filter(JobOutcome::finished).mapToDouble(JobOutcome::jctS).average()
        .orElse(Double.NaN);
  }

  /** 95th percentile JCT (nearest rank) over finished jobs, in seconds. */
  public double p95JctS() {
    double[] j = sortedJctsS();
    if (j.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(0.95 * j.length);
    return j[Math.max(0, rank - 1)];
  }

  public double[] sortedJctsS() {
    double[] j = jobs.stream().filter(JobOutcome::finished).mapToDouble(JobOutcome::jctS).toArray();
    Arrays.sort(j);
    return j;
  }

  /** From the first arrival to the last completion, in seconds. */
  public double makespanS() {
    long first = jobs.stream().mapToLong(JobOutcome::arrivalMs).min().orElse(0);
    long last = jobs.stream().filter(JobOutcome::finished).mapToLong(JobOutcome::completionMs)
        .max().orElse(first);
    return (last - first) / 1000.0;
  }

  /** Share of GPU time spent computing over the makespan. */
  public double gpuUtilization() {
    double span = makespanS() * 1000.0 * gpus;
    return span > 0 ? busyGpuMs / span : 0.0;
  }

  public double replanAvgMs() {
    return replans == 0 ? 0 : replanTotalNanos / 1e6 / replans;
  }

  public double replanMaxMs() {
    return replanMaxNanos / 1e6;
  }
}
