package io.hare.core.policy;

import io.hare.core.plan.GroupRef;
import io.hare.core.plan.PlanJob;
import io.hare.core.plan.PlanningProblem;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Position of every remaining round of every job in the latest planning order, so dispatch can
 * rank a job by the round it is on now: a job's priority falls as its rounds go by and its
 * next round sits later in the order.
 */
final class RoundRanks {

  private record Ranks(int firstRound, int[] positions) {}

  private final Map<String, Ranks> byJob = new HashMap<>();

  void reset(PlanningProblem p, List<GroupRef> order) {
    byJob.clear();
    Map<Integer, int[]> pos = new HashMap<>();
    for (int i = 0; i < order.size(); i++) {
      GroupRef r = order.get(i);
      PlanJob j = p.jobs().get(r.job());
      pos.computeIfAbsent(r.job(), n -> new int[j.groups()])[r.group()] = i;
    }
    pos.forEach((n, positions) -> {
      PlanJob j = p.jobs().get(n);
      byJob.put(j.id(), new Ranks(j.groupRound(0), positions));
    });
  }

  /** Rank of the job's current round; MAX_VALUE if the job or round was not planned. */
  int rank(JobView job) {
    Ranks r = byJob.get(job.id());
    if (r == null) {
      return Integer.MAX_VALUE;
    }
    int i = job.roundsDone() - r.firstRound();
    return i >= 0 && i < r.positions().length ? r.positions()[i] : Integer.MAX_VALUE;
  }

  void remove(String jobId) {
    byJob.remove(jobId);
  }
}
