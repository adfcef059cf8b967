package io.hare.core.plan;

import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A state flattened for the model: tasks numbered job by job, group by group, index by index;
 * times relative to the planning instant, in integer milliseconds rounded as the simulator
 * rounds them; integer weights.
 */
final class StateInstance implements TaskGpuTimes {

  /** Weights are scaled by at most this power of ten to make them integers. */
  private static final long MAX_WEIGHT_SCALE = 1_000_000;
  /** Objective terms stay below 2^53 so that its values are exact as doubles. */
  private static final double MAX_OBJECTIVE = 0x1p53;

  final PlanningProblem p;
  final long baseMs;
  final PlanJob[] jobs;
  /** First task of each job and first task of each of its groups. */
  final int[][] groupFirst;
  final int[] taskJob;
  final int[] taskGroup;
  final int[] taskIndex;
  /** Per job and GPU: compute ms, 0 when the job cannot run there; sync ms. */
  final long[][] computeMs;
  final long[][] syncMs;
  /** When each GPU frees, each job's first group may start, and its current round ends. */
  final long[] gpuFreeMs;
  final long[] releaseMs;
  final long[] floorMs;
  final long horizonMs;
  final long tickMs;
  final long[] scaledWeight;
  final long weightScale;

  private StateInstance(PlanningProblem p, List<PlanJob> live, long weightScale) {
    this.p = p;
    this.baseMs = p.nowMs();
    this.jobs = live.toArray(new PlanJob[0]);
    this.weightScale = weightScale;
    int n = jobs.length;
    int g = p.gpuCount();
    groupFirst = new int[n][];
    computeMs = new long[n][g];
    syncMs = new long[n][g];
    releaseMs = new long[n];
    floorMs = new long[n];
    scaledWeight = new long[n];
    gpuFreeMs = new long[g];
    long tick = 0;
    long latest = 0;
    for (int m = 0; m < g; m++) {
      gpuFreeMs[m] = Math.max(0, p.gpuFreeMs()[m] - baseMs);
      tick = gcd(tick, gpuFreeMs[m]);
      latest = Math.max(latest, gpuFreeMs[m]);
    }
    int tasks = 0;
    long work = 0;
    for (int j = 0; j < n; j++) {
      PlanJob job = jobs[j];
      scaledWeight[j] = Math.round(job.weight() * weightScale);
      releaseMs[j] = Math.max(0, job.releaseMs() - baseMs);
      floorMs[j] = Math.max(releaseMs[j], job.committedEndMs() - baseMs);
      tick = gcd(gcd(tick, releaseMs[j]), floorMs[j]);
      latest = Math.max(latest, floorMs[j]);
      long slowest = 0;
      for (int m = 0; m < g; m++) {
        TaskTimes tt = job.times(p.gpuType()[m]);
        if (tt != null) {
          computeMs[j][m] = Math.max(1, Math.round(tt.computeMs()));
          syncMs[j][m] = Math.round(tt.syncMs());
          tick = gcd(gcd(tick, computeMs[j][m]), syncMs[j][m]);
          slowest = Math.max(slowest, computeMs[j][m] + syncMs[j][m]);
        }
      }
      groupFirst[j] = new int[job.groups()];
      for (int q = 0; q < job.groups(); q++) {
        groupFirst[j][q] = tasks;
        tasks += job.groupSize(q);
      }
      work = Math.addExact(work, Math.multiplyExact(slowest, job.unstartedTasks()));
    }
    taskJob = new int[tasks];
    taskGroup = new int[tasks];
    taskIndex = new int[tasks];
    for (int j = 0; j < n; j++) {
      for (int q = 0; q < jobs[j].groups(); q++) {
        for (int i = 0; i < jobs[j].groupSize(q); i++) {
          int t = groupFirst[j][q] + i;
          taskJob[t] = j;
          taskGroup[t] = q;
          taskIndex[t] = i;
        }
      }
    }
    tickMs = Math.max(1, tick);
    // every task one after another on its slowest GPU, after everything now known: feasible
    horizonMs = Math.addExact(latest, work);
  }

  /** The state's instance, or null when it cannot be stated exactly in integers. */
  static StateInstance of(PlanningProblem p) {
    boolean[] present = p.presentTypes();
    List<PlanJob> live = new ArrayList<>();
    for (PlanJob j : p.jobs()) {
      boolean runnable = false;
      for (int t = 0; t < present.length; t++) {
        runnable |= present[t] && j.canRunOn(t);
      }
      if (j.groups() > 0 && runnable) {
        live.add(j); // a job with nothing left to start has a fixed completion
      }
    }
    long scale = weightScale(live);
    if (scale < 0) {
      return null;
    }
    try {
      StateInstance in = new StateInstance(p, live, scale);
      double maxTerm = 0;
      for (long w : in.scaledWeight) {
        maxTerm += (double) w * (2.0 * in.horizonMs / in.tickMs);
      }
      return maxTerm < MAX_OBJECTIVE ? in : null;
    } catch (ArithmeticException e) {
      return null; // times too large to add up in milliseconds
    }
  }

  /** The smallest power of ten that makes every weight an integer; -1 if none up to 10^6. */
  private static long weightScale(List<PlanJob> jobs) {
    for (long scale = 1; scale <= MAX_WEIGHT_SCALE; scale *= 10) {
      boolean integral = true;
      for (PlanJob j : jobs) {
        double w = j.weight() * scale;
        integral &= w >= 0 && Math.abs(w - Math.rint(w)) <= 1e-9 * Math.max(1, w);
      }
      if (integral) {
        return scale;
      }
    }
    return -1;
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  int taskCount() {
    return taskJob.length;
  }

  int jobCount() {
    return jobs.length;
  }

  @Override
  public int gpuCount() {
    return gpuFreeMs.length;
  }
  @Override
  public long tickMs() {
    return tickMs;
  }


  PlanJob job(int t) {
    return jobs[taskJob[t]];
  }

  @Override
  public boolean eligible(int t, int m) {
    return computeMs[taskJob[t]][m] > 0;
  }

  @Override
  public long compute(int t, int m) {
    return computeMs[taskJob[t]][m];
  }

  @Override
  public long sync(int t, int m) {
    return syncMs[taskJob[t]][m];
  }

  /**
   * GPUs that are interchangeable, each class in cluster order: same type and same free time,
   * so every task has the same times and the same earliest start on each.
   */
  List<List<Integer>> interchangeable() {
    Map<String, List<Integer>> classes = new LinkedHashMap<>();
    for (int m = 0; m < gpuCount(); m++) {
      classes.computeIfAbsent(p.gpuType()[m] + "@" + gpuFreeMs[m], k -> new ArrayList<>())
          .add(m);
    }
    return List.copyOf(classes.values());
  }

  /**
   * A feasible schedule by list scheduling (the group ready first goes next, each task to the
   * GPU where its compute ends first), written into the arrays and relabelled to satisfy the
   * model's symmetry breaking.
   */
  void greedy(long[] start, int[] gpu) {
    int n = jobCount();
    int[] next = new int[n];
    long[] ready = releaseMs.clone();
    long[] free = gpuFreeMs.clone();
    while (true) {
      int j = -1;
      for (int o = 0; o < n; o++) {
        if (next[o] < jobs[o].groups() && (j < 0 || ready[o] < ready[j])) {
          j = o;
        }
      }
      if (j < 0) {
        break;
      }
      int q = next[j];
      long end = q == 0 ? floorMs[j] : ready[j];
      long[] starts = new long[jobs[j].groupSize(q)];
      int[] gpus = new int[starts.length];
      for (int i = 0; i < starts.length; i++) {
        int t = groupFirst[j][q] + i;
        int best = -1;
        long bestEnd = Long.MAX_VALUE;
        for (int m = 0; m < gpuCount(); m++) {
          long e = Math.max(ready[j], free[m]) + compute(t, m);
          if (eligible(t, m) && e < bestEnd) {
            best = m;
            bestEnd = e;
          }
        }
        gpus[i] = best;
        starts[i] = bestEnd - compute(t, best);
        free[best] = bestEnd;
        end = Math.max(end, bestEnd + sync(t, best));
      }
      // identical tasks of a group start in index order, as the model asks
      Integer[] order = new Integer[starts.length];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparingLong(i -> starts[i]));
      for (int i = 0; i < order.length; i++) {
        start[groupFirst[j][q] + i] = starts[order[i]];
        gpu[groupFirst[j][q] + i] = gpus[order[i]];
      }
      ready[j] = end;
      next[j]++;
    }
    relabel(gpu);
  }

  /** Renames interchangeable GPUs in order of the first task each runs. */
  private void relabel(int[] gpu) {
    int[] first = new int[gpuCount()];
    Arrays.fill(first, Integer.MAX_VALUE);
    for (int t = gpu.length - 1; t >= 0; t--) {
      first[gpu[t]] = t;
    }
    int[] rename = new int[gpuCount()];
    for (List<Integer> group : interchangeable()) {
      List<Integer> byFirst = new ArrayList<>(group);
      byFirst.sort(Comparator.comparingInt(o -> first[o]));
      for (int i = 0; i < group.size(); i++) {
        rename[byFirst.get(i)] = group.get(i);
      }
    }
    for (int t = 0; t < gpu.length; t++) {
      gpu[t] = rename[gpu[t]];
    }
  }
}
