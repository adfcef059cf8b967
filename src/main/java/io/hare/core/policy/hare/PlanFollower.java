package io.hare.core.policy.hare;

import io.hare.core.GpuType;
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
 * takes the ready job ranked first; following an exact plan ({@link #follow}), only a job that
 * has no planned task left, since that plan keeps GPUs idle on purpose.
 */
final class PlanFollower {

  private final ListScheduler.Options options;
  private final Map<String, ArrayDeque<PlannedTask>> queues = new HashMap<>();
  /** Planned tasks not yet taken or skipped, per job; kept when following an exact plan. */
  private final Map<String, Integer> planned = new HashMap<>();
  private Plan plan;
  private boolean exact;

  PlanFollower(ListScheduler.Options options) {
    this.options = options;
  }

  void replan(PlanningProblem p, List<GroupRef> order, String[] lastJobOnGpu) {
    install(ListScheduler.schedule(p, order, options, lastJobOnGpu), false);
  }

  /**
   * Follows an optimal plan ({@link io.hare.core.plan.ExactPlanner}): its idle GPUs are part of
   * the optimum (a job waits for a faster GPU), so a GPU with nothing planned takes only jobs the
   * plan does not cover (arrived since, or with more rounds than it planned).
   */
  void follow(Plan exactPlan) {
    install(exactPlan, true);
  }

  private void install(Plan p, boolean exactPlan) {
    plan = p;
    exact = exactPlan;
    queues.clear();
    planned.clear();
    plan.perGpu().forEach((gpu, tasks) -> {
      queues.put(gpu, new ArrayDeque<>(tasks));
      if (exact) {
        tasks.forEach(t -> planned.merge(t.jobId(), 1, Integer::sum));
      }
    });
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
      byRank(cluster, idle, taken, ranks, exact ? planned : Map.of(), out);
    }
    return out;
  }

  /**
   * The job every GPU of {@code type} takes next by the plan, so a warm container of it may run
   * its next task on any of them as an offer would have; "" when the GPUs' next jobs differ or
   * one has nothing planned (no job keeps such a GPU warm).
   */
  String firstInLine(ClusterView cluster, GpuType type) {
    String first = null;
    for (GpuView gpu : cluster.gpus()) {
      if (gpu.type().equals(type)) {
        String head = null;
        for (PlannedTask t : queueOf(gpu)) {
          if (!stale(cluster, t)) {
            head = t.jobId();
            break;
          }
        }
        if (head == null || (first != null && !first.equals(head))) {
          return "";
        }
        first = head;
      }
    }
    return first == null ? "" : first;
  }

  /** The next {@code n} jobs the plan runs on GPUs of {@code type}, by planned start. */
  List<String> line(ClusterView cluster, GpuType type, int n) {
    List<PlannedTask> ahead = new ArrayList<>();
    for (GpuView gpu : cluster.gpus()) {
      if (gpu.type().equals(type)) {
        for (PlannedTask t : queueOf(gpu)) {
          if (!stale(cluster, t)) {
            ahead.add(t);
          }
        }
      }
    }
    ahead.sort(Comparator.comparingLong(PlannedTask::startMs));
    java.util.LinkedHashSet<String> jobs = new java.util.LinkedHashSet<>();
    for (int i = 0; i < ahead.size() && jobs.size() < n; i++) {
      jobs.add(ahead.get(i).jobId());
    }
    return List.copyOf(jobs);
  }

  private ArrayDeque<PlannedTask> queueOf(GpuView gpu) {
    ArrayDeque<PlannedTask> q = queues.get(gpu.id());
    return q == null ? new ArrayDeque<>() : q;
  }

  /** A planned task whose job is gone or whose round is over. */
  private static boolean stale(ClusterView cluster, PlannedTask t) {
    JobView job = cluster.job(t.jobId());
    return job == null || job.roundsDone() > t.round();
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
      if (stale(cluster, head)) {
        poll(q); // job or round already over
        continue;
      }
      JobView job = cluster.job(head.jobId());
      if (job.roundsDone() < head.round()) {
        return null; // the planned round's barrier has not cleared: wait, as planned
      }
      poll(q);
      if (job.readyTasks() - taken.getOrDefault(job.id(), 0) > 0) {
        return job.id();
      }
      // other GPUs took this round's tasks: try the next planned one
    }
    return null;
  }

  private void poll(ArrayDeque<PlannedTask> q) {
    PlannedTask t = q.pollFirst();
    if (exact) {
      planned.computeIfPresent(t.jobId(), (id, n) -> n == 1 ? null : n - 1);
    }
  }

  /** Ready jobs by rank onto GPUs with nothing planned, leaving out jobs still in the plan. */
  private static void byRank(ClusterView cluster, List<GpuView> idle, Map<String, Integer> taken,
      RoundRanks ranks, Map<String, Integer> stillPlanned, List<Assignment> out) {
    List<JobView> ready = new ArrayList<>();
    for (JobView j : cluster.jobs()) {
      if (j.readyTasks() - taken.getOrDefault(j.id(), 0) > 0
          && !stillPlanned.containsKey(j.id())) {
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
