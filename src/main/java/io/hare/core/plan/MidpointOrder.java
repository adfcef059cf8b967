package io.hare.core.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Step 2 of Algorithm 1: from the relaxed schedule take each task's worst-case midpoint
 * H = x^ + max over GPU types of Tc / 2 and sort by it.
 *
 * <p>The relaxation is aggregated (one variable per job, type and interval), so x^ is read off
 * the job's cumulative relaxed work: a group (the tasks of one round) starts when the job's
 * cumulative relaxed work reaches the tasks of the groups before it, interpolating linearly
 * inside an interval (from the later of the interval start and the job's release). All tasks of a
 * group share that start, so they are adjacent in the order. Ties: earlier arrival, then job id,
 * then group.
 */
public final class MidpointOrder {

  private MidpointOrder() {}

  public static List<GroupRef> of(PlanningProblem p, FluidSolution s) {
    boolean[] present = p.presentTypes();
    List<GroupRef> out = new ArrayList<>();
    double[] g = s.gridMs();
    for (int n = 0; n < p.jobs().size(); n++) {
      PlanJob j = p.jobs().get(n);
      double rel = Math.max(0, j.releaseMs() - p.nowMs());
      double maxTc = 0;
      for (int m = 0; m < present.length; m++) {
        if (present[m] && j.canRunOn(m)) {
          maxTc = Math.max(maxTc, j.times(m).computeMs());
        }
      }
      double[] cum = s.cumulative()[n];
      double before = 0;
      int t = 0;
      for (int grp = 0; grp < j.orderedGroups(); grp++) {
        // first moment the cumulative work exceeds the tasks of earlier groups
        double target = before + 1e-9;
        while (t < g.length - 2 && cum[t + 1] < target) {
          t++;
        }
        double lo = Math.max(g[t], rel);
        double hi = Math.max(g[t + 1], lo);
        double span = cum[t + 1] - cum[t];
        double frac = span > 1e-12 ? Math.min(1, Math.max(0, (before - cum[t]) / span)) : 0;
        double start = lo + frac * (hi - lo);
        out.add(new GroupRef(n, grp, start + maxTc / 2));
        before += j.groupSize(grp);
      }
    }
    sort(p, out);
    return out;
  }

  /**
   * Sorts by key, then the job's arrival, then its id, then the group. One comparator reading
   * arrays of the jobs' fields: a re-plan of 2,000 jobs sorts a few hundred thousand groups, and
   * a chain of comparators each fetching its job spent most of the re-plan. Same order as the
   * chain (the same total order; the sort is deterministic).
   */
  public static void sort(PlanningProblem p, List<GroupRef> refs) {
    int jobs = p.jobs().size();
    long[] arrival = new long[jobs];
    String[] id = new String[jobs];
    for (int n = 0; n < jobs; n++) {
      arrival[n] = p.jobs().get(n).arrivalMs();
      id[n] = p.jobs().get(n).id();
    }
    refs.sort((a, b) -> {
      int c = Double.compare(a.key(), b.key());
      if (c != 0) {
        return c;
      }
      c = Long.compare(arrival[a.job()], arrival[b.job()]);
      if (c != 0) {
        return c;
      }
      c = id[a.job()].compareTo(id[b.job()]);
      return c != 0 ? c : Integer.compare(a.group(), b.group());
    });
  }
}
