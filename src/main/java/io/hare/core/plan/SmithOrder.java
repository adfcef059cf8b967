package io.hare.core.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The fast stand-in for the relaxation: Smith's rule generalised to heterogeneous GPUs. Jobs
 * are ranked by weight over remaining work, the work counted as unstarted tasks x compute time on
 * the job's fastest type divided by k (the time the job would need alone, k tasks at a time); a
 * job's groups keep their order. It needs no solver and is measured against the relaxation order
 * in the README, never assumed equal to it.
 */
public final class SmithOrder {

  private SmithOrder() {}

  public static List<GroupRef> of(PlanningProblem p) {
    boolean[] present = p.presentTypes();
    List<GroupRef> out = new ArrayList<>();
    for (int n = 0; n < p.jobs().size(); n++) {
      PlanJob j = p.jobs().get(n);
      double alone = j.groups() * j.minRoundMs(present)
          + j.unstartedTasks() * j.minComputeMs(present) / j.k();
      double key = alone / j.weight(); // ascending key = descending weight / time
      for (int g = 0; g < j.groups(); g++) {
        // groups of one job follow each other; the tiny step keeps them after the job's key
        out.add(new GroupRef(n, g, key + g * 1e-9 * Math.max(1, key)));
      }
    }
    MidpointOrder.sort(p, out);
    return out;
  }
}
