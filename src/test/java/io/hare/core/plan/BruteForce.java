package io.hare.core.plan;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.TaskTimeModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact minimum total weighted JCT of a tiny instance by enumeration, written independently
 * of {@link ExactSolver} to cross-check it.
 *
 * <p>It enumerates every assignment of tasks to eligible GPUs and every order of the tasks on each
 * GPU, and gives each task its earliest start in that order: after its GPU's previous task
 * computed, after its job arrived, and after every task of its job's previous round computed and
 * synced. Orders that deadlock (a GPU runs a later round before an earlier one that some other
 * GPU is waiting on) are skipped. For non-preemptive scheduling with an objective that never
 * decreases when a completion time grows, an optimal schedule is among these semi-active ones:
 * pulling each task of any schedule to its earliest start in the same orders finishes no job later.
 *
 * <p>The k tasks of one round are identical (same times, same constraints), so a GPU's order is
 * enumerated as a sequence of (job, round) labels: each distinct schedule once instead of k! times.
 * Times are rounded as the simulator rounds them.
 */
final class BruteForce {

  /** Beyond this the enumeration takes too long for a unit test. */
  static final int MAX_TASKS = 10;

  private final List<JobSpec> jobs;
  private final int gpus;
  private final long[][] compute; // [job][gpu], 0 = cannot run
  private final long[][] sync;
  /** label = (job, round); job and round of each label, and how many tasks are left to place. */
  private final int[] labelJob;
  private final int[] labelRound;
  private final int[] left;
  private final int[] firstLabel;
  /** The sequence being built: labels, or -1 for "next GPU". */
  private final int[] seq;
  private int separatorsLeft;
  private double best = Double.POSITIVE_INFINITY;

  private BruteForce(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel times) {
    this.jobs = jobs;
    this.gpus = cluster.size();
    compute = new long[jobs.size()][gpus];
    sync = new long[jobs.size()][gpus];
    List<int[]> labels = new ArrayList<>();
    firstLabel = new int[jobs.size()];
    int tasks = 0;
    for (int j = 0; j < jobs.size(); j++) {
      JobSpec job = jobs.get(j);
      for (int m = 0; m < gpus; m++) {
        TaskTimes t = times.times(job.model(), cluster.gpus().get(m).type());
        if (t != null) {
          compute[j][m] = Math.max(1, Math.round(t.computeMs()));
          sync[j][m] = Math.round(t.syncMs());
        }
      }
      firstLabel[j] = labels.size();
      for (int r = 0; r < job.rounds(); r++) {
        labels.add(new int[] {j, r, job.tasksPerRound()});
      }
      tasks += (int) job.totalTasks();
    }
    if (tasks > MAX_TASKS) {
      throw new IllegalArgumentException("brute force: " + tasks + " tasks, at most " + MAX_TASKS);
    }
    labelJob = labels.stream().mapToInt(l -> l[0]).toArray();
    labelRound = labels.stream().mapToInt(l -> l[1]).toArray();
    left = labels.stream().mapToInt(l -> l[2]).toArray();
    separatorsLeft = Math.max(0, gpus - 1);
    seq = new int[tasks + separatorsLeft];
  }

  /** Minimum over all schedules of sum of weight x (completion - arrival), seconds. */
  static double minWeightedJctS(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel times) {
    if (jobs.isEmpty()) {
      return 0;
    }
    BruteForce b = new BruteForce(cluster, jobs, times);
    if (b.gpus > 0) {
      b.extend(0, 0);
    }
    return b.best;
  }

  /** Fills seq[pos...]; the tasks placed from here go on GPU {@code gpu} until a separator. */
  private void extend(int pos, int gpu) {
    if (pos == seq.length) {
      best = Math.min(best, evaluate());
      return;
    }
    if (separatorsLeft > 0) {
      separatorsLeft--;
      seq[pos] = -1;
      extend(pos + 1, gpu + 1);
      separatorsLeft++;
    }
    for (int l = 0; l < left.length; l++) {
      if (left[l] > 0 && compute[labelJob[l]][gpu] > 0) {
        left[l]--;
        seq[pos] = l;
        extend(pos + 1, gpu);
        left[l]++;
      }
    }
  }

  /** Earliest starts for the per-GPU orders in seq; +infinity if they deadlock. */
  private double evaluate() {
    int[] from = new int[gpus]; // each GPU's next position in seq
    int[] to = new int[gpus];
    for (int m = 0, p = 0; m < gpus; m++) {
      from[m] = p;
      while (p < seq.length && seq[p] >= 0) {
        p++;
      }
      to[m] = p++;
    }
    long[] gpuFree = new long[gpus];
    int[] placed = new int[left.length];
    long[] roundEnd = new long[left.length];
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int m = 0; m < gpus; m++) {
        while (from[m] < to[m]) {
          int l = seq[from[m]];
          int j = labelJob[l];
          long ready;
          if (labelRound[l] == 0) {
            ready = jobs.get(j).arrivalMs();
          } else if (placed[l - 1] == jobs.get(j).tasksPerRound()) {
            ready = roundEnd[l - 1];
          } else {
            break; // the previous round is not fully placed yet: its end is unknown
          }
          long start = Math.max(ready, gpuFree[m]);
          gpuFree[m] = start + compute[j][m];
          roundEnd[l] = Math.max(roundEnd[l], gpuFree[m] + sync[j][m]);
          placed[l]++;
          from[m]++;
          progress = true;
        }
      }
    }
    for (int m = 0; m < gpus; m++) {
      if (from[m] < to[m]) {
        return Double.POSITIVE_INFINITY;
      }
    }
    double total = 0;
    for (int j = 0; j < jobs.size(); j++) {
      JobSpec job = jobs.get(j);
      long completion = roundEnd[firstLabel[j] + job.rounds() - 1];
      total += job.weight() * (completion - job.arrivalMs());
    }
    return total / 1000.0;
  }
}
