package io.hare.core.plan;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import io.hare.core.TaskTimes;
import java.util.List;

/**
 * The relaxation of Hare_Sched that the planner solves: an interval-indexed ("time-indexed")
 * linear program over GPU types, in the family of Hall, Schulz, Shmoys and Wein (1997) and Schulz
 * and Skutella (2002) for unrelated machines with release dates, solved with GLOP.
 *
 * <p><b>Why not the paper's program as written.</b> HPDC '22 relaxes the per-GPU non-overlap
 * constraint with one Queyranne inequality per GPU over <i>all</i> tasks. With only that one
 * inequality a solver meets it by pushing the last round of the single cheapest job far into the
 * future and leaves every other task at its release time, so the midpoints it yields carry almost
 * no information; the paper's Lemma 2 needs the inequality for every prefix of the order, i.e. the
 * whole Queyranne polytope, and the program is still a mixed-integer quadratic one. The
 * interval-indexed LP below implies the parallel inequalities for every subset (per GPU type),
 * is linear with continuous variables, and aggregates what the paper keeps apart: identical GPUs of
 * a type share one capacity, and identical tasks of a job share one variable per interval.
 *
 * <p><b>Program.</b> Time after {@code now} is cut into T intervals [g(t-1), g(t)] that grow
 * geometrically (fine where decisions are near, coarse far out). Variables y(n,m,t) &gt;= 0 count
 * tasks of job n computed on type m in interval t, and C(n) its completion. Constraints:
 * <ul>
 *   <li>work: sum over m,t of y(n,m,t) = the job's unstarted tasks;
 *   <li>capacity: sum over n of Tc(n,m) y(n,m,t) &lt;= GPU time of type m free in interval t;
 *   <li>release and scale: Tc(n,m) y(n,m,t) &lt;= k(n) x (length of interval t after the job's
 *       release), i.e. never more than k tasks at once on a type, nothing before the release
 *       (the round barrier bounds the job's parallelism by k);
 *   <li>cross-type scale (with {@link Options#crossTypeLimit}): the same summed over types,
 *       sum over m of Tc(n,m) y(n,m,t) &lt;= k(n) x (length after the release), because the k
 *       tasks of a round are k tasks in all, not k per type; without it the LP lets a job run
 *       k tasks on every type at once and the bound sinks towards the critical paths;
 *   <li>mean busy time: C(n) &gt;= (1/U) sum y(n,m,t) max(g(t-1), release) + s(n), where s(n)
 *       says how far the mean busy time of a job's tasks must lie before its end (in the spirit of
 *       Goemans 1996 for one machine; see {@link #spanBound});
 *   <li>critical path: C(n) &gt;= release + (barrier groups left) x min(Tc + Ts), and
 *       C(n) &gt;= end of what already runs.
 * </ul>
 * Every feasible schedule satisfies all of them, so the optimum of sum w(n) C(n) is a lower bound.
 *
 * <p>Stateless and thread-safe; each call builds and frees its own solver.
 */
public final class FluidRelaxation {

  /**
   * @param intervals number of time intervals T (&gt;= 2); more is tighter and slower
   * @param timeLimitMs solver time limit; 0 for none
   * @param crossTypeLimit whether a job's k tasks at once are counted over all types together
   *     (tighter; one more row per job and interval) or per type (the planner's ordering, whose
   *     decisions were tuned on it)
   */
  public record Options(int intervals, long timeLimitMs, boolean crossTypeLimit) {
    public Options {
      if (intervals < 2) {
        throw new IllegalArgumentException("intervals must be >= 2, got " + intervals);
      }
    }

    /** Per-type limit only, as the planner orders tasks. */
    public Options(int intervals, long timeLimitMs) {
      this(intervals, timeLimitMs, false);
    }
  }

  /**
   * Time below which a piece of an interval counts as none. Interval ends are doubles (task
   * times are estimates), GPU free and release times whole milliseconds, so a GPU that frees at
   * an interval's end can leave it 10^-12 ms of capacity; rows with such a bound next to
   * coefficients of 10^4 ms made GLOP end ABNORMAL, and the re-plan fell back to the Smith order
   * without affinity.
   */
  static final double SLIVER_MS = 1e-6;

  private FluidRelaxation() {}

  public static FluidSolution solve(PlanningProblem p, Options options) {
    OrTools.load();
    double horizon = horizonMs(p);
    for (int attempt = 0; attempt < 4; attempt++) {
      FluidSolution s = solveOnce(p, options, grid(p, options.intervals(), horizon));
      if (s.optimal()) {
        return s;
      }
      horizon *= 4; // too short a horizon makes the work constraints infeasible
    }
    return new FluidSolution(false, Double.NaN, new double[0], new double[0][], new double[0],
        new double[0][], 0);
  }

  /**
   * How far before its completion the mean busy time of a job's unstarted tasks must lie, in any
   * schedule. A task of barrier group g (of G) computes before its group's last compute end e(g),
   * so its midpoint is at most e(g) - Tc_min / 2; a group's compute ends at least Ts_min + Tc_min
   * after the previous one's (its sync, then at least one compute), and the job ends at least
   * Ts_min after the last. Averaging over the tasks: C &gt;= M + Ts_min + Tc_min / 2 +
   * (Tc_min + Ts_min) x (sum over groups of size(g) x (G - 1 - g)) / U. The other way to bound it,
   * by the rate (at most k tasks at once, each at most 1/Tc_min per ms): C &gt;= M + U Tc_min /
   * (2k) + Ts_min. Both hold; the larger is used.
   */
  static double spanBound(PlanJob j, long u, double tcMin, double tsMin) {
    // sum over groups of size(g) x (G - 1 - g) in closed form: a job may declare 10^8 rounds
    double groups = j.groups();
    double groupsAfter = j.firstGroup() > 0
        ? j.firstGroup() * (groups - 1) + j.k() * (groups - 1) * (groups - 2) / 2
        : j.k() * groups * (groups - 1) / 2;
    double barrier = tsMin + tcMin / 2 + (tcMin + tsMin) * groupsAfter / u;
    double rate = u * tcMin / (2.0 * j.k()) + tsMin;
    return Math.max(barrier, rate);
  }

  /** Types with GPUs that the job can run on: with one, the per-type limit says it all. */
  private static int usableTypes(PlanJob j, boolean[] present) {
    int n = 0;
    for (int m = 0; m < present.length; m++) {
      if (present[m] && j.canRunOn(m)) {
        n++;
      }
    }
    return n;
  }

  /** Long enough that all work fits: latest release + critical path, plus all work spread. */
  static double horizonMs(PlanningProblem p) {
    boolean[] present = p.presentTypes();
    double latest = 1;
    double work = 0;
    for (PlanJob j : p.jobs()) {
      if (j.unstartedTasks() == 0) {
        continue;
      }
      double tc = j.minComputeMs(present);
      double rel = Math.max(0, j.releaseMs() - p.nowMs());
      latest = Math.max(latest, rel + j.groups() * j.minRoundMs(present)
          + j.unstartedTasks() * tc / j.k());
      work += j.unstartedTasks() * tc;
    }
    for (long f : p.gpuFreeMs()) {
      latest = Math.max(latest, f - p.nowMs());
    }
    return 2 * (latest + work / Math.max(1, p.gpuCount()));
  }

  /** Interval ends: gridMs[0] = 0, first interval of a short round, geometric up to horizon. */
  static double[] grid(PlanningProblem p, int intervals, double horizonMs) {
    boolean[] present = p.presentTypes();
    double first = Double.POSITIVE_INFINITY;
    for (PlanJob j : p.jobs()) {
      if (j.unstartedTasks() > 0) {
        first = Math.min(first, j.minRoundMs(present));
      }
    }
    if (!(first < horizonMs)) {
      first = horizonMs / 2;
    }
    double[] g = new double[intervals + 1];
    double ratio = Math.pow(horizonMs / first, 1.0 / (intervals - 1));
    g[1] = first;
    for (int t = 2; t <= intervals; t++) {
      g[t] = g[t - 1] * ratio;
    }
    g[intervals] = horizonMs;
    return g;
  }

  /**
   * Solves on a grid given by the caller (interval ends in ms after now, first 0, increasing);
   * the last interval must be long enough for all work, else the result is not optimal.
   */
  public static FluidSolution solveOnGrid(PlanningProblem p, double[] gridMs, long timeLimitMs,
      boolean crossTypeLimit) {
    OrTools.load();
    return solveOnce(p, new Options(gridMs.length - 1, timeLimitMs, crossTypeLimit), gridMs);
  }

  private static FluidSolution solveOnce(PlanningProblem p, Options o, double[] g) {
    long t0 = System.nanoTime();
    int types = p.types().size();
    int tCount = g.length - 1;
    boolean[] present = p.presentTypes();
    List<PlanJob> jobs = p.jobs();
    double inf = MPSolver.infinity();
    MPSolver solver = MPSolver.createSolver("GLOP");
    try {
      if (o.timeLimitMs() > 0) {
        solver.setTimeLimit(o.timeLimitMs());
      }
      // GPU time free per type and interval, net of what already runs
      MPConstraint[][] cap = new MPConstraint[types][tCount];
      double[][] capMs = new double[types][tCount];
      for (int i = 0; i < p.gpuCount(); i++) {
        double free = Math.max(0, p.gpuFreeMs()[i] - p.nowMs());
        for (int t = 0; t < tCount; t++) {
          double ms = g[t + 1] - Math.max(g[t], free);
          capMs[p.gpuType()[i]][t] += ms < SLIVER_MS ? 0 : ms;
        }
      }
      for (int m = 0; m < types; m++) {
        for (int t = 0; t < tCount; t++) {
          cap[m][t] = solver.makeConstraint(-inf, capMs[m][t], "");
        }
      }
      MPObjective obj = solver.objective();
      MPVariable[][][] y = new MPVariable[jobs.size()][][];
      MPVariable[] c = new MPVariable[jobs.size()];
      double constant = 0;
      for (int n = 0; n < jobs.size(); n++) {
        PlanJob j = jobs.get(n);
        double rel = Math.max(0, j.releaseMs() - p.nowMs());
        double committed = Math.max(0, j.committedEndMs() - p.nowMs());
        long u = j.unstartedTasks();
        if (u == 0) {
          constant += j.weight() * committed;
          continue;
        }
        double critical = rel + j.groups() * j.minRoundMs(present);
        double tcMin = j.minComputeMs(present);
        double tsMin = j.minSyncMs(present);
        c[n] = solver.makeNumVar(Math.max(critical, committed), inf, "");
        obj.setCoefficient(c[n], j.weight());
        MPConstraint work = solver.makeConstraint(u, u, "");
        MPConstraint mbt = solver.makeConstraint(spanBound(j, u, tcMin, tsMin), inf, "");
        mbt.setCoefficient(c[n], 1);
        y[n] = new MPVariable[types][tCount];
        MPConstraint[] scale = o.crossTypeLimit() && usableTypes(j, present) > 1
            ? new MPConstraint[tCount] : null;
        for (int m = 0; m < types; m++) {
          TaskTimes tt = j.times(m);
          if (tt == null || !present[m]) {
            continue;
          }
          for (int t = 0; t < tCount; t++) {
            double start = Math.max(g[t], rel);
            if (g[t + 1] - start < SLIVER_MS) {
              continue;
            }
            double ub = j.k() * (g[t + 1] - start) / tt.computeMs();
            MPVariable v = solver.makeNumVar(0, ub, "");
            y[n][m][t] = v;
            if (scale != null) {
              if (scale[t] == null) {
                scale[t] = solver.makeConstraint(-inf, j.k() * (g[t + 1] - start), "");
              }
              scale[t].setCoefficient(v, tt.computeMs());
            }
            work.setCoefficient(v, 1);
            cap[m][t].setCoefficient(v, tt.computeMs());
            mbt.setCoefficient(v, -start / u);
          }
        }
      }
      obj.setMinimization();
      MPSolver.ResultStatus status = solver.solve();
      long nanos = System.nanoTime() - t0;
      if (status != MPSolver.ResultStatus.OPTIMAL) {
        return new FluidSolution(false, Double.NaN, g, new double[0][], new double[0],
            new double[0][], nanos);
      }
      double[][] cum = new double[jobs.size()][tCount + 1];
      double[] comp = new double[jobs.size()];
      double[][] share = new double[jobs.size()][types];
      for (int n = 0; n < jobs.size(); n++) {
        if (c[n] == null) {
          comp[n] = Math.max(0, jobs.get(n).committedEndMs() - p.nowMs());
          continue;
        }
        comp[n] = c[n].solutionValue();
        for (int t = 0; t < tCount; t++) {
          double sum = 0;
          for (int m = 0; m < types; m++) {
            if (y[n][m] != null && y[n][m][t] != null) {
              double v = Math.max(0, y[n][m][t].solutionValue());
              sum += v;
              share[n][m] += v;
            }
          }
          cum[n][t + 1] = cum[n][t] + Math.max(0, sum);
        }
        double total = cum[n][tCount];
        for (int m = 0; m < types; m++) {
          share[n][m] = total > 0 ? share[n][m] / total : 0;
        }
      }
      return new FluidSolution(true, obj.value() + constant, g, cum, comp, share, nanos);
    } finally {
      solver.delete();
    }
  }
}
