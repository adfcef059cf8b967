package io.hare.core.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A schedule as the solver handles it: task t (numbered as in {@link TinyInstance}) runs on GPU
 * {@code gpuOf[t]} from {@code startMs[t]}. {@link #greedy} builds a feasible one fast.
 */
final class Placement {

  final int[] gpuOf;
  final long[] startMs;

  Placement(int[] gpuOf, long[] startMs) {
    this.gpuOf = gpuOf;
    this.startMs = startMs;
  }

  /**
   * A feasible schedule by list scheduling: the round that becomes ready first goes next, each of
   * its tasks to the GPU where its compute ends earliest. Not good, only feasible and fast: it is
   * the solver's starting hint, and what is returned if the time limit hits before CP-SAT finds
   * any schedule. Every start is a sum of task times and an arrival, and it ends by the horizon.
   */
  static Placement greedy(TinyInstance in) {
    int n = in.jobs.size();
    int[] gpuOf = new int[in.taskCount()];
    long[] start = new long[in.taskCount()];
    int[] nextRound = new int[n];
    long[] ready = new long[n];
    for (int j = 0; j < n; j++) {
      ready[j] = in.jobs.get(j).arrivalMs();
    }
    long[] gpuFree = new long[in.gpuCount()];
    while (true) {
      int j = -1;
      for (int o = 0; o < n; o++) {
        if (nextRound[o] < in.jobs.get(o).rounds() && (j < 0 || ready[o] < ready[j])) {
          j = o;
        }
      }
      if (j < 0) {
        return new Placement(gpuOf, start);
      }
      long roundEnd = ready[j];
      for (int q = 0; q < in.jobs.get(j).tasksPerRound(); q++) {
        int t = in.task(j, nextRound[j], q);
        int best = -1;
        long bestEnd = Long.MAX_VALUE;
        for (int m = 0; m < in.gpuCount(); m++) {
          long end = Math.max(ready[j], gpuFree[m]) + in.compute(t, m);
          if (in.eligible(t, m) && end < bestEnd) {
            best = m;
            bestEnd = end;
          }
        }
        gpuOf[t] = best;
        start[t] = bestEnd - in.compute(t, best);
        gpuFree[best] = bestEnd;
        roundEnd = Math.max(roundEnd, bestEnd + in.sync(t, best));
      }
      ready[j] = roundEnd;
      nextRound[j]++;
    }
  }

  /**
   * The same schedule relabelled to satisfy the solver's symmetry breaking: the tasks of a round
   * start in index order, and GPUs of one type are used in order of the first task they run.
   * Relabelling identical tasks and identical GPUs changes no time, so the objective is the same.
   */
  Placement canonical(TinyInstance in) {
    int[] gpu = new int[gpuOf.length];
    long[] start = new long[startMs.length];
    for (int j = 0; j < in.jobs.size(); j++) {
      int k = in.jobs.get(j).tasksPerRound();
      for (int r = 0; r < in.jobs.get(j).rounds(); r++) {
        Integer[] byStart = new Integer[k];
        for (int q = 0; q < k; q++) {
          byStart[q] = in.task(j, r, q);
        }
        Arrays.sort(byStart, Comparator.comparingLong(t -> startMs[t]));
        for (int q = 0; q < k; q++) {
          gpu[in.task(j, r, q)] = gpuOf[byStart[q]];
          start[in.task(j, r, q)] = startMs[byStart[q]];
        }
      }
    }
    int[] firstTask = new int[in.gpuCount()];
    Arrays.fill(firstTask, Integer.MAX_VALUE);
    for (int t = gpu.length - 1; t >= 0; t--) {
      firstTask[gpu[t]] = t;
    }
    int[] rename = new int[in.gpuCount()];
    for (List<Integer> group : in.typeGroups()) {
      List<Integer> byFirst = new ArrayList<>(group);
      byFirst.sort(Comparator.comparingInt(o -> firstTask[o]));
      for (int p = 0; p < group.size(); p++) {
        rename[byFirst.get(p)] = group.get(p);
      }
    }
    for (int t = 0; t < gpu.length; t++) {
      gpu[t] = rename[gpu[t]];
    }
    return new Placement(gpu, start);
  }
}
