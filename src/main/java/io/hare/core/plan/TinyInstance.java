package io.hare.core.plan;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.TaskTimeModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A small instance flattened for exact solving: tasks numbered job by job, round by round, index
 * by index; integer task times per (job, GPU) rounded as the simulator rounds them; integer
 * weights. Validates size and feasibility up front so the solver never sees a bad instance.
 */
final class TinyInstance implements TaskGpuTimes {

  /** Largest weight scale tried: weights with more decimals than this cannot be made integer. */
  private static final int MAX_WEIGHT_DECIMALS = 6;
  /** Objective terms stay below 2^53 so every objective value is also exact as a double. */
  private static final double MAX_OBJECTIVE = 0x1p53;

  final List<JobSpec> jobs;
  final List<Gpu> gpus;
  /** First task id of each job; the job's task (r, q) is {@code firstTask[j] + r * k + q}. */
  final int[] firstTask;
  final int[] taskJob;
  final int[] taskRound;
  final int[] taskIndex;
  /** Compute ms of one task of job j on GPU g, or 0 when the job cannot run there. */
  final long[][] computeMs;
  final long[][] syncMs;
  /** A time by which some schedule completes every job: no optimal schedule goes past it. */
  final long horizonMs;
  /** Greatest common divisor of all task times and arrivals: the solver's unit of time. */
  final long tickMs;
  /** Weights times {@link #weightScale}, exactly integral. */
  final long[] scaledWeight;
  final long weightScale;

  private TinyInstance(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel times) {
    this.jobs = List.copyOf(jobs);
    this.gpus = cluster.gpus();
    int n = this.jobs.size();
    int g = gpus.size();
    firstTask = new int[n];
    computeMs = new long[n][g];
    syncMs = new long[n][g];
    long tasks = 0;
    Set<String> ids = new HashSet<>();
    for (int j = 0; j < n; j++) {
      JobSpec job = this.jobs.get(j);
      if (!ids.add(job.id())) {
        throw new IllegalArgumentException("exact solver: duplicate job id " + job.id());
      }
      firstTask[j] = (int) Math.min(tasks, Integer.MAX_VALUE);
      // saturating: the size check below reports the total, and must not see an overflow
      tasks = tasks > Long.MAX_VALUE - job.totalTasks() ? Long.MAX_VALUE : tasks + job.totalTasks();
    }
    if (tasks > ExactSolver.MAX_TASKS || g > ExactSolver.MAX_GPUS) {
      throw new IllegalArgumentException("exact solver: instance too big: " + tasks + " tasks on "
          + g + " GPUs; the limit is " + ExactSolver.MAX_TASKS + " tasks (rounds x tasks per "
          + "round summed over jobs) and " + ExactSolver.MAX_GPUS + " GPUs");
    }
    int t = (int) tasks;
    taskJob = new int[t];
    taskRound = new int[t];
    taskIndex = new int[t];
    long horizon = 0;
    for (int j = 0; j < n; j++) {
      JobSpec job = this.jobs.get(j);
      long slowest = -1;
      for (int m = 0; m < g; m++) {
        TaskTimes tt = times.times(job.model(), gpus.get(m).type());
        if (tt != null) {
          // the simulator's rounding, so that optima here and simulated schedules compare exactly
          computeMs[j][m] = Math.max(1, Math.round(tt.computeMs()));
          syncMs[j][m] = Math.round(tt.syncMs());
          slowest = Math.max(slowest, computeMs[j][m] + syncMs[j][m]);
        }
      }
      if (slowest < 0) {
        throw new IllegalArgumentException("exact solver: job " + job.id() + " (model "
            + job.model() + ") cannot run on any GPU of the cluster " + cluster);
      }
      for (int r = 0; r < job.rounds(); r++) {
        for (int q = 0; q < job.tasksPerRound(); q++) {
          int id = firstTask[j] + r * job.tasksPerRound() + q;
          taskJob[id] = j;
          taskRound[id] = r;
          taskIndex[id] = q;
        }
      }
      // every task one after another, each on its slowest GPU, after the last arrival: feasible
      horizon = Math.addExact(horizon, Math.multiplyExact(slowest, job.totalTasks()));
    }
    long lastArrival = this.jobs.stream().mapToLong(JobSpec::arrivalMs).max().orElse(0);
    long tick = 0;
    for (int j = 0; j < n; j++) {
      tick = gcd(tick, this.jobs.get(j).arrivalMs());
      for (int m = 0; m < g; m++) {
        tick = gcd(gcd(tick, computeMs[j][m]), syncMs[j][m]);
      }
    }
    tickMs = Math.max(1, tick);
    horizonMs = Math.addExact(horizon, lastArrival);
    weightScale = weightScale(this.jobs);
    scaledWeight = new long[n];
    double objectiveMax = 0;
    for (int j = 0; j < n; j++) {
      scaledWeight[j] = Math.round(this.jobs.get(j).weight() * weightScale);
      objectiveMax += (double) scaledWeight[j] * horizonMs;
    }
    if (objectiveMax > MAX_OBJECTIVE) {
      throw new IllegalArgumentException("exact solver: weights x times too large for an exact "
          + "integer objective (sum of weight x " + weightScale + " x horizon " + horizonMs
          + " ms must stay below 2^53)");
    }
  }

  static TinyInstance of(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel times) {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(jobs, "jobs");
    Objects.requireNonNull(times, "times");
    try {
      return new TinyInstance(cluster, jobs, times);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("exact solver: task times too large (overflow)", e);
    }
  }

  /** The smallest power of ten that makes every weight an integer. */
  private static long weightScale(List<JobSpec> jobs) {
    long scale = 1;
    for (int d = 0; d <= MAX_WEIGHT_DECIMALS; d++, scale *= 10) {
      boolean integral = true;
      for (JobSpec j : jobs) {
        double w = j.weight() * scale;
        integral &= Math.abs(w - Math.rint(w)) <= 1e-9 * Math.max(1, w);
      }
      if (integral) {
        return scale;
      }
    }
    throw new IllegalArgumentException("exact solver: weights must have at most "
        + MAX_WEIGHT_DECIMALS + " decimal places for an exact integer objective");
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  int taskCount() {
    return taskJob.length;
  }

  @Override
  public int gpuCount() {
    return gpus.size();
  }
  @Override
  public long tickMs() {
    return tickMs;
  }


  JobSpec job(int task) {
    return jobs.get(taskJob[task]);
  }

  @Override
  public boolean eligible(int task, int gpu) {
    return computeMs[taskJob[task]][gpu] > 0;
  }

  @Override
  public long compute(int task, int gpu) {
    return computeMs[taskJob[task]][gpu];
  }

  @Override
  public long sync(int task, int gpu) {
    return syncMs[taskJob[task]][gpu];
  }

  /** Task id of (job j, round r, index q). */
  int task(int j, int r, int q) {
    return firstTask[j] + r * jobs.get(j).tasksPerRound() + q;
  }

  /**
   * The GPUs grouped by type, each group in cluster order. GPUs of one group are interchangeable:
   * every job has the same times on them.
   */
  List<List<Integer>> typeGroups() {
    Map<GpuType, List<Integer>> groups = new LinkedHashMap<>();
    for (int m = 0; m < gpus.size(); m++) {
      groups.computeIfAbsent(gpus.get(m).type(), k -> new ArrayList<>()).add(m);
    }
    return List.copyOf(groups.values());
  }

  /**
   * The placement as a schedule, with its objective values. The lower bound is capped at the
   * schedule's own value (pass +infinity for a proven optimum).
   */
  ExactSchedule toSchedule(Placement p, ExactSchedule.Status status, double jctLowerBoundS,
      double wallS) {
    int[] gpuOf = p.gpuOf;
    long[] startMs = p.startMs;
    List<ScheduledTask> tasks = new ArrayList<>();
    long[] completion = new long[jobs.size()];
    for (int t = 0; t < taskCount(); t++) {
      int m = gpuOf[t];
      Gpu gpu = gpus.get(m);
      long computeEnd = startMs[t] + compute(t, m);
      long syncEnd = computeEnd + sync(t, m);
      tasks.add(new ScheduledTask(job(t).id(), taskRound[t], taskIndex[t], gpu.id(), gpu.type(),
          startMs[t], computeEnd, syncEnd));
      completion[taskJob[t]] = Math.max(completion[taskJob[t]], syncEnd);
    }
    Map<String, Long> completionMs = new LinkedHashMap<>();
    double weightedCompletion = 0;
    double weightedJct = 0;
    for (int j = 0; j < jobs.size(); j++) {
      JobSpec job = jobs.get(j);
      completionMs.put(job.id(), completion[j]);
      weightedCompletion += job.weight() * completion[j];
      weightedJct += job.weight() * (completion[j] - job.arrivalMs());
    }
    return new ExactSchedule(status, tasks, completionMs, weightedCompletion / 1000.0,
        weightedJct / 1000.0, Math.min(jctLowerBoundS, weightedJct / 1000.0), wallS);
  }
}
