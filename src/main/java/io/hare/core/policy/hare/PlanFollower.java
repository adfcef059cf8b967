package io.hare.core.policy.hare;

import io.hare.core.plan.GroupRef;
import io.hare.core.plan.ListScheduler;
import io.hare.core.plan.Plan;
import io.hare.core.plan.PlannedTask;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The paper's executors: every GPU runs the sequence of tasks list scheduling gave it. When
 * offered, a GPU takes the next task of its sequence if that round is ready, skips tasks whose
 * round is over or whose tasks other GPUs already took, and otherwise waits (idles) for its
 * planned round, as planned. A GPU with an empty sequence (a job arrived since the last plan)
 * takes the ready job ranked first.
 */
final class PlanFollower {

  private final ListScheduler.Options options;
  private final Map<String, ArrayDeque<PlannedTask>> queues = new HashMap<>();
  private Plan plan;

  PlanFollower(ListScheduler.Options options) {
    this.options = options;
  }

  void replan(PlanningProblem p, List<GroupRef> order, String[] lastJobOnGpu) {
    plan = ListScheduler.schedule(p, order, options, lastJobOnGpu);
    queues.clear();
    plan.perGpu().forEach((gpu, tasks) -> queues.put(gpu, new ArrayDeque<>(tasks)));
  }

  Plan plan() {
    return plan;
  }

  List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      RoundRanks ranks) {
    List<Assignment> out = new ArrayList<>();
    Map<String, Integer> taken = new HashMap<>();
    List<GpuView> idle = new ArrayList<>();
    for (GpuView gpu : freeGpus) {
      String job = next(cluster, gpu, taken);
      if (job != null) {
        out.add(new Assignment(gpu.id(), job));
        taken.merge(job, 1, Integer::sum);
      } else if (queueEmpty(gpu)) {
        idle.add(gpu);
      }
    }
    if (!idle.isEmpty()) {
      byRank(cluster, idle, taken, ranks, out);
    }
    return out;
  }

  private boolean queueEmpty(GpuView gpu) {
    ArrayDeque<PlannedTask> q = queues.get(gpu.id());
    return q == null || q.isEmpty();
  }

  /** The next task of the GPU's sequence if its round is ready; null to wait or if none. */
  private String next(ClusterView cluster, GpuView gpu, Map<String, Integer> taken) {
    ArrayDeque<PlannedTask> q = queues.get(gpu.id());
    while (q != null && !q.isEmpty()) {
      PlannedTask head = q.peekFirst();
      JobView job = cluster.job(head.jobId());
      if (job == null || job.roundsDone() > head.round()) {
        q.pollFirst(); // job or round already over
        continue;
      }
      if (job.roundsDone() < head.round()) {
        return null; // the planned round's barrier has not cleared: wait, as planned
      }
      q.pollFirst();
      if (job.readyTasks() - taken.getOrDefault(job.id(), 0) > 0) {
        return job.id();
      }
      // other GPUs took this round's tasks: try the next planned one
    }
    return null;
  }

  private static void byRank(ClusterView cluster, List<GpuView> idle, Map<String, Integer> taken,
      RoundRanks ranks, List<Assignment> out) {
    List<JobView> ready = new ArrayList<>();
    for (JobView j : cluster.jobs()) {
      if (j.readyTasks() - taken.getOrDefault(j.id(), 0) > 0) {
        ready.add(j);
      }
    }
    ready.sort(Comparator.comparingDouble(ranks::rank));
    for (GpuView gpu : idle) {
      for (JobView j : ready) {
        if (j.readyTasks() - taken.getOrDefault(j.id(), 0) > 0 && j.times(gpu.type()) != null) {
          out.add(new Assignment(gpu.id(), j.id()));
          taken.merge(j.id(), 1, Integer::sum);
          break;
        }
      }
    }
  }
}
