package io.hare.core.policy.hlas;

import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Heterogeneity-aware matching of ready tasks to the free GPU types of one offer, in up to
 * {@value #PASSES} passes of three steps:
 *
 * <ol>
 *   <li><b>Select</b> which tasks run, strictly in the priority order given: a job gets as many
 *       of its ready tasks as still fit the free GPUs of types it can run on. Fitting is exact
 *       (Hall's condition over the subsets of free types), so a task is never left out because
 *       an earlier job took a GPU it could have done without.
 *   <li><b>Match</b> the selected tasks to types by relative speed: minimise the sum over tasks of
 *       compute time on the chosen type divided by the job's compute time on its best type (an
 *       exact transportation problem over models x free types). The job that gains most from a
 *       fast type gets it; a job that gains little goes to the slow type. Among jobs of one
 *       model, the higher-priority job gets the better type.
 *   <li><b>Patience</b> (optional): a task matched to a type where it is slow declines it when a
 *       faster type is expected to free soon enough that waiting for it finishes the task much
 *       sooner: {@code T(here) > (1 + margin) * (wait(m) + T(m))}. The wait is booked as a
 *       reservation of that type's next slot (list scheduling), so jobs further down cannot all
 *       count on the same GPU (at most {@value FreeTimes#HORIZON} wait for one type per offer);
 *       the declined GPU goes to the next pass, which continues down the priority order. This
 *       keeps the last task of a round off a K80 when its siblings' V100s free first, so it does
 *       not become the straggler that holds the round barrier. Margins of 1 to 1.5 measured best
 *       (0.25 to 3 tried); without patience HLAS's weighted JCT was 7-19% higher.
 * </ol>
 *
 * <p>Types are indices into the caller's list. Cost per offer: candidates are read once, in
 * order, until the free GPUs are used, and at most 4 per free GPU + 256 of them (a GPU none of
 * those can or will use stays free until the next offer); each costs O(2^F) for F free types
 * (exact up to {@value #MAX_EXACT_TYPES} free types, a feasible greedy beyond).
 */
final class TypeMatcher {

  static final int MAX_EXACT_TYPES = 10;
  private static final int PASSES = 4;
  /** Candidates read per offer at most: per free GPU, plus a constant (cost bound). */
  private static final int SCAN_PER_GPU = 4;
  private static final int SCAN_EXTRA = 256;

  /** {@code count} tasks of {@code job} start on free GPUs of type index {@code type}. */
  record Grant(JobView job, int type, int count) {}

  /** What the matcher reads about a candidate job. */
  interface Candidate {
    JobView view();

    /** Estimated compute time of one task on type index t, ms; NaN if it cannot run there. */
    double computeMs(int t);

    /** Compute time of one task on the job's best type in the cluster, ms. */
    double refComputeMs();
  }

  private final boolean patience;
  private final double margin;

  TypeMatcher(boolean patience, double margin) {
    this.patience = patience;
    this.margin = margin;
  }

  /**
   * @param free type indices with free GPUs in this offer
   * @param caps free GPUs per entry of {@code free}; consumed
   * @param types number of types in the cluster (patience may wait for any of them)
   * @param order candidates in priority order
   */
  List<Grant> match(int[] free, int[] caps, int types, Iterator<? extends Candidate> order,
      FreeTimes.Look look, long nowMs) {
    int f = free.length;
    int budget = SCAN_PER_GPU * Arrays.stream(caps).sum() + SCAN_EXTRA;
    List<Grant> out = new ArrayList<>();
    List<Candidate> leftovers = new ArrayList<>(); // selected earlier, may take more
    Map<Candidate, int[]> taken = new LinkedHashMap<>(); // {selected, declined}
    for (int pass = 0; pass < PASSES; pass++) {
      Fit fit = new Fit(caps);
      Map<String, List<Candidate>> byModel = new LinkedHashMap<>();
      Map<Candidate, Integer> want = new LinkedHashMap<>();
      Iterator<Candidate> again = new ArrayList<>(leftovers).iterator();
      leftovers.clear();
      while (!fit.full() && (again.hasNext() || (budget > 0 && order.hasNext()))) {
        Candidate c = again.hasNext() ? again.next() : order.next();
        budget--;
        int[] t = taken.computeIfAbsent(c, k -> new int[2]);
        int mask = 0;
        for (int i = 0; i < f; i++) {
          if (!Double.isNaN(c.computeMs(free[i]))) {
            mask |= 1 << i;
          }
        }
        int n = Math.min(c.view().readyTasks() - t[0], fit.maxAdd(mask));
        if (n > 0) {
          fit.add(mask, n);
          t[0] += n;
          byModel.computeIfAbsent(c.view().model(), m -> new ArrayList<>()).add(c);
          want.put(c, n);
        }
      }
      if (want.isEmpty()) {
        break;
      }
      List<List<Candidate>> groups = new ArrayList<>(byModel.values());
      int[] supply = new int[groups.size()];
      double[][] cost = new double[groups.size()][f];
      for (int r = 0; r < groups.size(); r++) {
        Candidate first = groups.get(r).get(0);
        for (Candidate c : groups.get(r)) {
          supply[r] += want.get(c);
        }
        for (int i = 0; i < f; i++) {
          double ms = first.computeMs(free[i]);
          cost[r][i] = Double.isNaN(ms) ? Double.POSITIVE_INFINITY : ms / first.refComputeMs();
        }
      }
      int[][] flow = TransportSolver.solve(supply, caps, cost);
      boolean declined = false;
      for (int r = 0; r < groups.size(); r++) {
        int[] quota = flow[r];
        Integer[] byCost = new Integer[f];
        Arrays.setAll(byCost, i -> i);
        double[] row = cost[r];
        Arrays.sort(byCost, (a, b) -> Double.compare(row[a], row[b]));
        for (Candidate c : groups.get(r)) {
          int n = want.get(c);
          int[] t = taken.get(c);
          for (int bi = 0; bi < f && n > 0; bi++) {
            int i = byCost[bi];
            int give = Math.min(n, quota[i]);
            quota[i] -= give;
            n -= give;
            for (int g = 0; g < give; g++) {
              if (patience && decline(c, free[i], types, look, nowMs)) {
                t[1]++; // this task waits for a better type; the job is not re-offered
                t[0]--;
                declined = true;
                continue;
              }
              caps[i]--;
              look.planStart(free[i], nowMs + Math.round(c.computeMs(free[i])));
              addGrant(out, c.view(), free[i]);
            }
          }
          if (t[1] == 0 && t[0] < c.view().readyTasks()) {
            leftovers.add(c);
          }
        }
      }
      if (!declined) {
        break;
      }
    }
    return out;
  }

  private boolean decline(Candidate c, int here, int types, FreeTimes.Look look, long nowMs) {
    double slow = c.computeMs(here);
    int best = -1;
    double bestFinish = Double.POSITIVE_INFINITY;
    for (int t = 0; t < types; t++) {
      double ms = c.computeMs(t);
      if (t == here || Double.isNaN(ms) || ms >= slow) {
        continue;
      }
      long next = look.next(t);
      if (next < 0) {
        continue;
      }
      double finish = Math.max(0, next - nowMs) + ms;
      if (finish < bestFinish) {
        bestFinish = finish;
        best = t;
      }
    }
    if (best < 0 || slow <= (1 + margin) * bestFinish) {
      return false;
    }
    look.reserve(best, nowMs + Math.round(bestFinish));
    return true;
  }

  private static void addGrant(List<Grant> out, JobView job, int type) {
    int last = out.size() - 1;
    if (last >= 0 && out.get(last).job() == job && out.get(last).type() == type) {
      out.set(last, new Grant(job, type, out.get(last).count() + 1));
    } else {
      out.add(new Grant(job, type, 1));
    }
  }

  /**
   * Fitting of tasks with eligibility masks into per-type capacities: exact (Hall's condition
   * over subsets of types) up to {@value #MAX_EXACT_TYPES} free types; beyond, each task is
   * booked on the first eligible type with room, which is feasible but may select fewer.
   */
  private static final class Fit {
    private final int f;
    private final int[] left; // greedy mode: room per type after tentative bookings
    private final int[] capOf; // exact mode: capacity of each subset of types
    private final int[] loadOf; // exact mode: tasks whose mask lies within each subset
    private int free;

    Fit(int[] caps) {
      this.f = caps.length;
      for (int c : caps) {
        free += c;
      }
      if (f <= MAX_EXACT_TYPES) {
        left = null;
        capOf = new int[1 << f];
        loadOf = new int[1 << f];
        for (int s = 1; s < capOf.length; s++) {
          capOf[s] = capOf[s & (s - 1)] + caps[Integer.numberOfTrailingZeros(s)];
        }
      } else {
        left = caps.clone();
        capOf = null;
        loadOf = null;
      }
    }

    boolean full() {
      return free <= 0;
    }

    int maxAdd(int mask) {
      if (mask == 0) {
        return 0;
      }
      int best = 0;
      if (capOf == null) {
        for (int i = 0; i < f; i++) {
          best += (mask >> i & 1) == 1 ? left[i] : 0;
        }
        return best;
      }
      best = Integer.MAX_VALUE;
      int all = (1 << f) - 1;
      for (int s = mask; s <= all; s = (s + 1) | mask) {
        best = Math.min(best, capOf[s] - loadOf[s]);
      }
      return best;
    }

    void add(int mask, int n) {
      free -= n;
      if (capOf == null) {
        for (int i = 0; i < f && n > 0; i++) {
          if ((mask >> i & 1) == 1) {
            int b = Math.min(n, left[i]);
            left[i] -= b;
            n -= b;
          }
        }
        return;
      }
      int all = (1 << f) - 1;
      for (int s = mask; s <= all; s = (s + 1) | mask) {
        loadOf[s] += n;
      }
    }
  }
}
