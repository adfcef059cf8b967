package io.hare.core.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Smith's rule (weighted shortest processing time) over what is left of each job: jobs ranked by
 * weight over remaining work, the work counted in GPU time as unstarted tasks x compute time on
 * the job's fastest type; a job's groups keep their order. Counting GPU time rather than the time
 * the job would take alone (work / k) ranks wide jobs by the capacity they really take from
 * others. Measured against the relaxation's midpoint order in the README (it wins at scale: the
 * interval-indexed relaxation is indifferent to the order of work inside one interval, so its
 * midpoints break ties among many jobs arbitrarily), never assumed equal to it.
 *
 * <p>A group's key follows from its job's ({@link #groupKey}), so a caller that needs only the
 * keys and which jobs come first reads {@link #jobKeys} and {@link #jobOrder}: listing and sorting
 * every group ({@link #of}) costs millions of entries at 20,000 jobs of up to 200 rounds.
 */
public final class SmithOrder {

  private SmithOrder() {}

  /** The sort key of a job with this much remaining GPU work (ms): lower runs first. */
  public static double key(double workMs, double weight) {
    return workMs / weight; // ascending key = descending weight / work
  }

  /** Each job's key, by job index. */
  public static double[] jobKeys(PlanningProblem p) {
    boolean[] present = p.presentTypes();
    double[] keys = new double[p.jobs().size()];
    for (int n = 0; n < keys.length; n++) {
      PlanJob j = p.jobs().get(n);
      keys[n] = key(j.unstartedTasks() * j.minComputeMs(present), j.weight());
    }
    return keys;
  }

  /**
   * The key of group {@code g} of a job keyed {@code jobKey}: groups of one job follow each
   * other; the tiny step keeps them after the job's key.
   */
  public static double groupKey(double jobKey, int g) {
    return jobKey + g * 1e-9 * Math.max(1, jobKey);
  }

  public static List<GroupRef> of(PlanningProblem p) {
    double[] keys = jobKeys(p);
    List<GroupRef> out = new ArrayList<>();
    for (int n = 0; n < keys.length; n++) {
      for (int g = 0; g < p.jobs().get(n).orderedGroups(); g++) {
        out.add(new GroupRef(n, g, groupKey(keys[n], g)));
      }
    }
    MidpointOrder.sort(p, out);
    return out;
  }

  /**
   * The first {@code max} jobs with groups left, by index, in the order {@link #of} first names
   * them: by the key of their first group there, then arrival, then id, as
   * {@link MidpointOrder#sort} ties. Selects before it sorts: a re-plan's LP takes its first
   * 50 of 20,000 jobs.
   */
  public static int[] jobOrder(PlanningProblem p, double[] jobKeys, int max) {
    List<PlanJob> jobs = p.jobs();
    double[] first = new double[jobs.size()];
    Comparator<Integer> order = (a, b) -> {
      int c = Double.compare(first[a], first[b]);
      if (c != 0) {
        return c;
      }
      c = Long.compare(jobs.get(a).arrivalMs(), jobs.get(b).arrivalMs());
      return c != 0 ? c : jobs.get(a).id().compareTo(jobs.get(b).id());
    };
    // the max first seen so far, the last of them on top
    PriorityQueue<Integer> head = new PriorityQueue<>(order.reversed());
    for (int n = 0; n < jobs.size() && max > 0; n++) {
      int groups = jobs.get(n).orderedGroups();
      if (groups == 0) {
        continue;
      }
      // keys grow with the group from group 1 on (rounding is monotone), so the least is group
      // 0's or group 1's: 0 x infinity makes group 0 of a job keyed +infinity NaN, which sorts last
      first[n] = groupKey(jobKeys[n], 0);
      if (groups > 1 && Double.compare(groupKey(jobKeys[n], 1), first[n]) < 0) {
        first[n] = groupKey(jobKeys[n], 1);
      }
      if (head.size() < max) {
        head.add(n);
      } else if (order.compare(n, head.peek()) < 0) {
        head.poll();
        head.add(n);
      }
    }
    int[] out = new int[head.size()];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = head.poll();
    }
    return out;
  }
}
