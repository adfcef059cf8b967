package io.hare.core.policy.gang;

import com.google.ortools.Loader;
import com.google.ortools.graph.MinCostFlow;
import com.google.ortools.graph.MinCostFlowBase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * AlloX's matching (Le et al., EuroSys '20; Gavel's {@code scheduler/policies/allox.py}): jobs
 * against (machine, position) pairs, where putting job i at position p of machine j (p = 1 runs
 * last) costs p x its processing time on j, since it delays itself and the p - 1 jobs after it.
 * The minimum-cost assignment is the schedule minimising the sum of completion times; each
 * machine then starts the job at its highest position, and the rest is planned again later.
 *
 * <p>Machines come in classes of identical machines, so the columns (machine j of class c,
 * position p) for all j of a class cost the same: we merge them into one node (c, p) with
 * capacity = the class's machine count and solve a min-cost flow (OR-Tools {@link MinCostFlow})
 * instead of a square assignment, which is exact and far smaller. Positions per class start at
 * about (candidates / machines) + 1 and double while the top position of a class is full; a class
 * whose top position has spare room would not use a higher one (its arcs cost more than the spare
 * ones, so their reduced costs stay positive), so the final answer is the unrestricted optimum.
 */
final class AlloxMatching {

  /**
   * One way to run a candidate.
   *
   * @param machineClass index of the class of machines
   * @param processingMs its processing time there, &gt;= 1
   */
  record Option(int machineClass, long processingMs) {}

  private static final long MAX_COST = 1L << 40; // OR-Tools scales costs by the node count

  private static volatile boolean loaded;

  private AlloxMatching() {}

  /** Loads OR-Tools' native libraries once per JVM. */
  static void loadNatives() {
    if (!loaded) {
      synchronized (AlloxMatching.class) {
        if (!loaded) {
          Loader.loadNativeLibraries();
          loaded = true;
        }
      }
    }
  }

  /**
   * Solves the matching.
   *
   * @param options per candidate (in the order that breaks ties, oldest first), where it can run;
   *     every candidate has at least one option
   * @param machines per class, identical machines free now, each &gt;= 1
   * @return per candidate, the class on which it starts now, or -1 if it waits behind others
   */
  static int[] firstRunners(List<List<Option>> options, int[] machines) {
    int m = options.size();
    int classes = machines.length;
    int[] demand = new int[classes];
    long maxP = 1;
    for (List<Option> os : options) {
      for (Option o : os) {
        demand[o.machineClass()]++;
        maxP = Math.max(maxP, o.processingMs());
      }
    }
    long allMachines = 0;
    for (int n : machines) {
      allMachines += n;
    }
    int[] bound = new int[classes];
    int[] layers = new int[classes];
    int maxBound = 1;
    for (int c = 0; c < classes; c++) {
      bound[c] = Math.max(1, (demand[c] + machines[c] - 1) / machines[c]);
      layers[c] = (int) Math.min(bound[c], (m + allMachines - 1) / allMachines + 1);
      maxBound = Math.max(maxBound, bound[c]);
    }
    // Costs p x P must stay small for the solver; a common unit keeps them proportional.
    long unit = Math.max(1, (long) Math.ceil((double) maxP * maxBound / MAX_COST));
    while (true) {
      Solution s = solve(options, machines, layers, unit);
      boolean grew = false;
      for (int c = 0; c < classes; c++) {
        if (s.topFlow()[c] == machines[c] && layers[c] < bound[c]) {
          layers[c] = Math.min(bound[c], 2 * layers[c]);
          grew = true;
        }
      }
      if (!grew) {
        return starters(options, machines, s);
      }
    }
  }

  /** Where each candidate went (class -1: nowhere) and the flow into each class's top position. */
  private record Solution(int[] classOf, int[] positionOf, int[] topFlow) {}

  private static Solution solve(List<List<Option>> options, int[] machines, int[] layers,
      long unit) {
    int m = options.size();
    int[] base = new int[machines.length];
    int next = 1 + m;
    for (int c = 0; c < machines.length; c++) {
      base[c] = next;
      next += layers[c];
    }
    int sink = next;
    MinCostFlow f = new MinCostFlow();
    try {
      List<int[]> jobArcs = new ArrayList<>(); // {arc, candidate, class, position}
      for (int i = 0; i < m; i++) {
        f.addArcWithCapacityAndUnitCost(0, 1 + i, 1, 0);
        for (Option o : options.get(i)) {
          long p = Math.max(1, (o.processingMs() + unit - 1) / unit);
          for (int pos = 1; pos <= layers[o.machineClass()]; pos++) {
            int arc = f.addArcWithCapacityAndUnitCost(1 + i, base[o.machineClass()] + pos - 1, 1,
                pos * p);
            jobArcs.add(new int[] {arc, i, o.machineClass(), pos});
          }
        }
      }
      int[] topArc = new int[machines.length];
      for (int c = 0; c < machines.length; c++) {
        for (int pos = 1; pos <= layers[c]; pos++) {
          topArc[c] = f.addArcWithCapacityAndUnitCost(base[c] + pos - 1, sink, machines[c], 0);
        }
      }
      f.setNodeSupply(0, m);
      f.setNodeSupply(sink, -m);
      MinCostFlowBase.Status status = f.solveMaxFlowWithMinCost();
      if (status != MinCostFlowBase.Status.OPTIMAL) {
        throw new IllegalStateException("allox: min-cost flow failed: " + status);
      }
      int[] classOf = new int[m];
      int[] positionOf = new int[m];
      Arrays.fill(classOf, -1);
      for (int[] a : jobArcs) {
        if (f.getFlow(a[0]) > 0) {
          classOf[a[1]] = a[2];
          positionOf[a[1]] = a[3];
        }
      }
      int[] top = new int[machines.length];
      for (int c = 0; c < machines.length; c++) {
        top[c] = (int) f.getFlow(topArc[c]);
      }
      return new Solution(classOf, positionOf, top);
    } finally {
      f.delete();
    }
  }

  /** On each class, its machines start the jobs at the highest positions, shortest first. */
  private static int[] starters(List<List<Option>> options, int[] machines, Solution s) {
    List<List<Integer>> on = new ArrayList<>();
    for (int c = 0; c < machines.length; c++) {
      on.add(new ArrayList<>());
    }
    for (int i = 0; i < options.size(); i++) {
      if (s.classOf()[i] >= 0) {
        on.get(s.classOf()[i]).add(i);
      }
    }
    int[] run = new int[options.size()];
    Arrays.fill(run, -1);
    for (int c = 0; c < machines.length; c++) {
      final int cls = c;
      List<Integer> l = on.get(c);
      l.sort(Comparator.<Integer>comparingInt(i -> -s.positionOf()[i])
          .thenComparingLong(i -> processing(options.get(i), cls))
          .thenComparingInt(i -> i));
      for (int j = 0; j < Math.min(machines[c], l.size()); j++) {
        run[l.get(j)] = c;
      }
    }
    return run;
  }

  private static long processing(List<Option> os, int c) {
    for (Option o : os) {
      if (o.machineClass() == c) {
        return o.processingMs();
      }
    }
    throw new IllegalArgumentException("no option on class " + c);
  }
}
