package io.hare.core.policy.hare;

import io.hare.core.plan.GroupRef;
import io.hare.core.plan.MidpointOrder;
import io.hare.core.plan.PlanJob;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.plan.SmithOrder;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sort key of every remaining round of every job in the latest planning order, so dispatch
 * can rank a job by the round it is on now: a job's priority falls as its rounds go by and its
 * next round sits later in the order. Jobs that arrived since the last plan can be given a key of
 * their own that is comparable with the plan's (the Smith order's keys are), else they rank last.
 */
final class RoundRanks {

  /**
   * The keys of a job's ranked rounds: {@code keys} when an order gave them one by one, else the
   * Smith key of each of {@code count} groups, computed when asked ({@link SmithOrder#groupKey}),
   * so a re-plan stores one number per job, not one per round.
   *
   * @param truncated the order ranked only the job's first groups (PlanJob#orderedGroups)
   */
  private record Ranks(int firstRound, double[] keys, double smithKey, int count,
      boolean truncated) {

    Ranks(int firstRound, double[] keys, boolean truncated) {
      this(firstRound, keys, Double.NaN, keys.length, truncated);
    }

    double key(int i) {
      return keys != null ? keys[i] : SmithOrder.groupKey(smithKey, i);
    }
  }

  private final Map<String, Ranks> byJob = new HashMap<>();

  void reset(PlanningProblem p, List<GroupRef> order) {
    byJob.clear();
    double[][] keys = new double[p.jobs().size()][]; // by job index: no boxing per group
    for (GroupRef r : order) {
      double[] k = keys[r.job()];
      if (k == null) {
        k = new double[p.jobs().get(r.job()).orderedGroups()];
        keys[r.job()] = k;
      }
      k[r.group()] = r.key();
    }
    for (int n = 0; n < keys.length; n++) {
      if (keys[n] != null) {
        PlanJob j = p.jobs().get(n);
        byJob.put(j.id(), new Ranks(j.groupRound(0), keys[n], j.groups() > keys[n].length));
      }
    }
  }

  /**
   * The Smith order's keys ({@link SmithOrder#jobKeys}): the same ranks as {@link #reset} given
   * {@link SmithOrder#of}, without listing the groups.
   */
  void reset(PlanningProblem p, double[] smithKeys) {
    byJob.clear();
    for (int n = 0; n < smithKeys.length; n++) {
      PlanJob j = p.jobs().get(n);
      int count = j.orderedGroups();
      if (count > 0) {
        byJob.put(j.id(), new Ranks(j.groupRound(0), null, smithKeys[n], count,
            j.groups() > count));
      }
    }
  }

  /** Ranks every remaining round of a job not in the plan by one key. */
  void put(JobView job, double key) {
    byJob.put(job.id(), new Ranks(job.roundsDone(), new double[] {key}, true));
  }

  boolean has(String jobId) {
    return byJob.containsKey(jobId);
  }

  /** Key of the job's current round; +infinity if the job or round was not ranked. */
  double rank(JobView job) {
    return rank(job.id(), job.roundsDone());
  }

  /** Key of round {@code round} of a job; +infinity if the job or round was not ranked. */
  double rank(String jobId, int round) {
    Ranks r = byJob.get(jobId);
    if (r == null) {
      return Double.POSITIVE_INFINITY;
    }
    int i = round - r.firstRound();
    if (i < 0) {
      return Double.POSITIVE_INFINITY;
    }
    // a job ranked by one key for all its rounds, or only for its first rounds, keeps its last
    // key; one that outlived the rounds a plan gave it (its size was a guess, or it ran past the
    // one it declared) ranks last until the next plan
    return i < r.count() ? r.key(i)
        : r.truncated() ? r.key(r.count() - 1)
        : Double.POSITIVE_INFINITY;
  }

  /**
   * The remaining groups of {@code p}'s jobs in the order these keys give (a job's groups in
   * their own order, unranked ones last, ties by arrival): the order dispatch follows, for a
   * forecast.
   */
  List<GroupRef> order(PlanningProblem p) {
    List<GroupRef> out = new ArrayList<>();
    for (int n = 0; n < p.jobs().size(); n++) {
      PlanJob j = p.jobs().get(n);
      double key = Double.NEGATIVE_INFINITY;
      for (int g = 0; g < j.orderedGroups(); g++) {
        key = Math.max(key, rank(j.id(), j.groupRound(g))); // a later round never goes first
        out.add(new GroupRef(n, g, key));
      }
    }
    MidpointOrder.sort(p, out);
    return out;
  }

  void remove(String jobId) {
    byJob.remove(jobId);
  }
}
