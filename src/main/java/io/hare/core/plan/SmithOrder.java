package io.hare.core.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Smith's rule (weighted shortest processing time) over what is left of each job: jobs ranked by
 * weight over remaining work, the work counted in GPU time as unstarted tasks x compute time on
 * the job's fastest type; a job's groups keep their order. Counting GPU time rather than the time
 * the job would take alone (work / k) ranks wide jobs by the capacity they really take from
 * others. Measured against the relaxation's midpoint order in the README (it wins at scale: the
 * interval-indexed relaxation is indifferent to the order of work inside one interval, so its
 * midpoints break ties among many jobs arbitrarily), never assumed equal to it.
 */
public final class SmithOrder {

  private SmithOrder() {}

  /** The sort key of a job with this much remaining GPU work (ms): lower runs first. */
  public static double key(double workMs, double weight) {
    return workMs / weight; // ascending key = descending weight / work
  }

  public static List<GroupRef> of(PlanningProblem p) {
    boolean[] present = p.presentTypes();
    List<GroupRef> out = new ArrayList<>();
    for (int n = 0; n < p.jobs().size(); n++) {
      PlanJob j = p.jobs().get(n);
      double work = j.unstartedTasks() * j.minComputeMs(present);
      double key = key(work, j.weight());
      for (int g = 0; g < j.orderedGroups(); g++) {
        // groups of one job follow each other; the tiny step keeps them after the job's key
        out.add(new GroupRef(n, g, key + g * 1e-9 * Math.max(1, key)));
      }
    }
    MidpointOrder.sort(p, out);
    return out;
  }
}
