package io.hare.core.plan;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.TaskTimeModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A lower bound on the total weighted JCT of any schedule of a whole workload: the optimum of the
 * {@link FluidRelaxation} over all jobs with their arrivals as release dates, minus the weighted
 * arrivals. The bound always counts a job's k tasks at once over all types together
 * ({@link FluidRelaxation.Options#crossTypeLimit}): it costs one row per job and interval and
 * keeps the bound from sinking towards the critical paths on clusters of many types.
 *
 * <p>Grid: the relaxation loses at most an interval's length per job, so intervals must be short
 * relative to the time since the arrival of every job that may run in them. Breakpoints are laid
 * as a geometric ladder (ratio {@code 1 + resolution}) after every arrival, each ladder cut at the
 * next arrival, so an interval starting at t is never longer than resolution x (t - latest
 * arrival before t) and hence than resolution x the elapsed time of any job in it. If that makes
 * more intervals than {@code maxIntervals}, the resolution is coarsened until it fits; by default
 * the cap keeps the LP under {@link #DEFAULT_MAX_VARIABLES} variables, so large workloads get a
 * valid but looser bound rather than a solve that does not end.
 */
public final class RelaxationBound {

  /** Default resolution: ~5 % per interval. */
  public static final double DEFAULT_RESOLUTION = 0.05;
  /** Most intervals, and most LP variables (jobs x types x intervals), by default. */
  public static final int DEFAULT_MAX_INTERVALS = 600;
  public static final int DEFAULT_MAX_VARIABLES = 120_000;

  private RelaxationBound() {}

  /** Above this many jobs the LP is skipped by default and the critical path is the bound. */
  public static final int DEFAULT_MAX_LP_JOBS = 10_000;

  /**
   * How hard to try.
   *
   * @param resolution target relative interval length (&gt; 0)
   * @param maxVariables cap on jobs x types x intervals (the intervals shrink to fit, at least 8)
   * @param maxLpJobs above this many jobs skip the LP: the critical-path bound only
   * @param timeLimitMs solver limit, 0 for none; on timeout the critical-path bound is returned
   */
  public record Options(double resolution, int maxVariables, int maxLpJobs, long timeLimitMs) {
    public Options {
      if (!(resolution > 0) || maxVariables < 1 || maxLpJobs < 0 || timeLimitMs < 0) {
        throw new IllegalArgumentException("bad bound options: resolution " + resolution
            + ", max variables " + maxVariables + ", max LP jobs " + maxLpJobs
            + ", time limit " + timeLimitMs);
      }
    }

    public static Options defaults() {
      return new Options(DEFAULT_RESOLUTION, DEFAULT_MAX_VARIABLES, DEFAULT_MAX_LP_JOBS, 0);
    }
  }

  /** Lower bound on sum of weight x JCT over all jobs, in seconds, with default options. */
  public static double totalWeightedJctS(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times) {
    return totalWeightedJctS(cluster, jobs, times, Options.defaults());
  }

  /** Lower bound on sum of weight x JCT over all jobs, in seconds. */
  public static double totalWeightedJctS(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times, Options o) {
    if (jobs.size() > o.maxLpJobs()) {
      return criticalPathS(offlineProblem(cluster, jobs, times));
    }
    int types = Math.max(1, cluster.types().size());
    int byVars = o.maxVariables() / Math.max(1, jobs.size() * types);
    return totalWeightedJctS(cluster, jobs, times, o.resolution(),
        Math.max(8, Math.min(DEFAULT_MAX_INTERVALS, byVars)), o.timeLimitMs());
  }

  /**
   * @param resolution target relative interval length (&gt; 0)
   * @param maxIntervals most intervals in the LP
   * @param timeLimitMs solver limit, 0 for none; on timeout the critical-path bound is returned
   */
  public static double totalWeightedJctS(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times, double resolution, int maxIntervals, long timeLimitMs) {
    PlanningProblem p = offlineProblem(cluster, jobs, times);
    double critical = criticalPathS(p);
    if (p.jobs().isEmpty() || p.gpuCount() == 0) {
      return critical;
    }
    double weightedArrivalS = 0;
    for (PlanJob j : p.jobs()) {
      weightedArrivalS += j.weight() * (j.arrivalMs() - p.nowMs()) / 1000.0;
    }
    double horizon = FluidRelaxation.horizonMs(p);
    for (int attempt = 0; attempt < 4; attempt++) {
      FluidSolution s = FluidRelaxation.solveOnGrid(p,
          grid(p, horizon, resolution, maxIntervals), timeLimitMs, true);
      if (s.optimal()) {
        return Math.max(critical, s.objective() / 1000.0 - weightedArrivalS);
      }
      horizon *= 4;
    }
    return critical;
  }

  /** All jobs as released at their arrival, nothing running, planned from the first arrival. */
  static PlanningProblem offlineProblem(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times) {
    List<GpuType> types = cluster.types();
    int[] gpuType = new int[cluster.size()];
    String[] ids = new String[cluster.size()];
    for (int i = 0; i < cluster.size(); i++) {
      gpuType[i] = types.indexOf(cluster.gpus().get(i).type());
      ids[i] = cluster.gpus().get(i).id();
    }
    long now = jobs.stream().mapToLong(JobSpec::arrivalMs).min().orElse(0);
    long[] free = new long[cluster.size()];
    Arrays.fill(free, now);
    List<PlanJob> pj = new ArrayList<>();
    for (JobSpec j : jobs) {
      TaskTimes[] tt = new TaskTimes[types.size()];
      boolean runnable = false;
      for (int m = 0; m < types.size(); m++) {
        tt[m] = simulated(times.times(j.model(), types.get(m)));
        runnable |= tt[m] != null && cluster.count(types.get(m)) > 0;
      }
      if (runnable) {
        pj.add(new PlanJob(j.id(), j.weight(), j.arrivalMs(), j.arrivalMs(), j.tasksPerRound(),
            0, j.tasksPerRound(), j.rounds() - 1, tt, j.arrivalMs()));
      }
    }
    return new PlanningProblem(now, types, gpuType, free, ids, pj);
  }

  /**
   * Task times as the simulator runs them (whole milliseconds, compute at least 1), so the bound
   * holds for simulated schedules too: with fractional times a long job could come out a few
   * milliseconds above its rounded simulation.
   */
  private static TaskTimes simulated(TaskTimes t) {
    return t == null ? null
        : new TaskTimes(Math.max(1, Math.round(t.computeMs())), Math.round(t.syncMs()));
  }

  /**
   * The sum over jobs of weight x (R rounds of their fastest compute + sync), in seconds: what
   * the bound would be with GPUs enough for every job at once. Printed beside the bound, it
   * shows how much of the bound the contention for GPUs adds.
   */
  public static double criticalPathSumS(ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel times) {
    return criticalPathS(offlineProblem(cluster, jobs, times));
  }

  /** Each job needs at least R rounds of its fastest compute + sync after arriving. */
  static double criticalPathS(PlanningProblem p) {
    boolean[] present = p.presentTypes();
    double total = 0;
    for (PlanJob j : p.jobs()) {
      total += j.weight() * j.groups() * j.minRoundMs(present) / 1000.0;
    }
    return total;
  }

  static double[] grid(PlanningProblem p, double horizonMs, double resolution, int maxIntervals) {
    boolean[] present = p.presentTypes();
    double first = Double.POSITIVE_INFINITY;
    TreeSet<Double> anchorSet = new TreeSet<>();
    for (PlanJob j : p.jobs()) {
      first = Math.min(first, j.minRoundMs(present));
      anchorSet.add((double) (j.releaseMs() - p.nowMs()));
    }
    double[] anchors = anchorSet.stream().mapToDouble(Double::doubleValue).toArray();
    double end = Math.max(horizonMs, anchors[anchors.length - 1] + horizonMs / 2);
    for (double r = resolution; ; r *= 1.5) {
      List<Double> points = new ArrayList<>();
      points.add(0.0);
      double lastAnchor = 0;
      int next = 0;
      double x = first;
      // walk forward: from each point, step resolution x (time since the latest arrival), but
      // never past the next arrival, which always starts a new ladder of fine steps
      while (x < end) {
        while (next < anchors.length && anchors[next] <= points.get(points.size() - 1)) {
          lastAnchor = anchors[next++];
        }
        double nextAnchor = next < anchors.length ? anchors[next] : end;
        double since = points.get(points.size() - 1) - lastAnchor;
        double step = Math.max(first, r * since);
        x = Math.min(points.get(points.size() - 1) + step, nextAnchor);
        points.add(Math.min(x, end));
        if (points.size() > maxIntervals + 1) {
          break;
        }
      }
      if (points.size() <= maxIntervals + 1) {
        points.set(points.size() - 1, end);
        return points.stream().mapToDouble(Double::doubleValue).toArray();
      }
      if (r > 1e6) {
        // so many arrivals that even coarse ladders do not fit: fall back to equal steps
        double[] g = new double[maxIntervals + 1];
        for (int t = 1; t <= maxIntervals; t++) {
          g[t] = end * t / maxIntervals;
        }
        return g;
      }
    }
  }
}
