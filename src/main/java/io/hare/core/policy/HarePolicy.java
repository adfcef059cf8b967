package io.hare.core.policy;

import io.hare.core.SchedulerKeys;
import io.hare.core.plan.FluidRelaxation;
import io.hare.core.plan.FluidSolution;
import io.hare.core.plan.GroupRef;
import io.hare.core.plan.ListScheduler;
import io.hare.core.plan.ListScheduler.GpuChoice;
import io.hare.core.plan.MidpointOrder;
import io.hare.core.plan.Plan;
import io.hare.core.plan.PlannedTask;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.plan.SmithOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hare: Algorithm 1 of the paper, re-planned online.
 *
 * <p>At each re-plan (after arrivals, at most every {@code replan-min-interval-ms}) the policy
 * snapshots what is left of every job, solves the {@link FluidRelaxation relaxation}, orders the
 * remaining rounds by worst-case midpoint ({@link MidpointOrder}) and list-schedules them
 * ({@link ListScheduler}) into a sequence of tasks per GPU. Between re-plans each GPU runs its
 * sequence: when it is offered, it takes the next task of its sequence if that round is ready,
 * skips tasks whose round other GPUs have already taken, and otherwise waits, as the executors of
 * the paper follow their sequences. A GPU whose sequence is empty (a job arrived since the last
 * plan) takes the ready job first in the current order.
 *
 * <p>Variants ({@code yarn.scheduler.hare.hare.*}): {@code ordering=relaxation|smith} and
 * {@code gpu-choice=earliest-finish|earliest-free}. The paper's algorithm is relaxation +
 * earliest-free, registered as {@code hare-paper}; {@code hare} uses earliest-finish, which
 * measurement showed better (README, "Simulator results").
 *
 * <p>Clairvoyant: it reads the number of rounds. A job without one is planned as having as many
 * rounds left as it has done.
 */
public final class HarePolicy implements SchedulingPolicy {

  public static final String NAME = "hare";
  public static final String PAPER_NAME = "hare-paper";

  private static final Logger LOG = LoggerFactory.getLogger(HarePolicy.class);

  private final String name;
  private final boolean relaxation;
  private final GpuChoice choice;
  private final FluidRelaxation.Options lpOptions;
  private final long minIntervalMs;
  private final int maxTasks;
  private final long switchMs;

  private final HareTracker tracker = new HareTracker();
  private final Map<String, ArrayDeque<PlannedTask>> queues = new HashMap<>();
  private final RoundRanks ranks = new RoundRanks();
  private final PriorityDispatcher dispatcher = new PriorityDispatcher(ranks);
  private final boolean followPlan;
  private boolean dirty;
  private long lastReplanMs = Long.MIN_VALUE;
  private long lpFailures;

  public HarePolicy(PolicyConfig c) {
    this(NAME, c, SchedulerKeys.DEFAULT_HARE_GPU_CHOICE, SchedulerKeys.DEFAULT_HARE_DISPATCH);
  }

  /** The paper's Algorithm 1 unchanged: relaxation order, earliest-free GPU. */
  public static HarePolicy paper(PolicyConfig c) {
    return new HarePolicy(PAPER_NAME, c, "earliest-free", "plan");
  }

  private HarePolicy(String name, PolicyConfig c, String defaultChoice, String defaultDispatch) {
    this.name = name;
    this.followPlan = c.getChoice(SchedulerKeys.HARE_DISPATCH, defaultDispatch, "priority",
        "plan").equals("plan");
    this.relaxation = c.getChoice(SchedulerKeys.HARE_ORDERING,
        SchedulerKeys.DEFAULT_HARE_ORDERING, "relaxation", "smith").equals("relaxation");
    this.choice = c.getChoice(SchedulerKeys.HARE_GPU_CHOICE, defaultChoice,
        "earliest-finish", "earliest-free").equals("earliest-free")
        ? GpuChoice.EARLIEST_FREE : GpuChoice.EARLIEST_FINISH;
    this.lpOptions = new FluidRelaxation.Options(
        c.getInt(SchedulerKeys.HARE_LP_INTERVALS, SchedulerKeys.DEFAULT_HARE_LP_INTERVALS, 2,
            10_000),
        c.getLong(SchedulerKeys.HARE_LP_TIME_LIMIT_MS,
            SchedulerKeys.DEFAULT_HARE_LP_TIME_LIMIT_MS, 0, Long.MAX_VALUE));
    this.minIntervalMs = c.getLong(SchedulerKeys.HARE_REPLAN_MIN_INTERVAL_MS,
        SchedulerKeys.DEFAULT_HARE_REPLAN_MIN_INTERVAL_MS, 0, Long.MAX_VALUE);
    this.maxTasks = c.getInt(SchedulerKeys.HARE_PLAN_MAX_TASKS,
        SchedulerKeys.DEFAULT_HARE_PLAN_MAX_TASKS, 1, Integer.MAX_VALUE);
    this.switchMs = c.getLong(SchedulerKeys.HARE_SWITCH_MS, SchedulerKeys.DEFAULT_HARE_SWITCH_MS,
        0, Long.MAX_VALUE);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean clairvoyant() {
    return true;
  }

  @Override
  public void onJobArrived(JobView job, long nowMs) {
    dirty = true;
    dispatcher.refresh(job);
  }

  @Override
  public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
    tracker.started(job, gpu, nowMs);
    if (job.readyTasks() == 0) {
      dispatcher.remove(job.id());
    }
  }

  @Override
  public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
    tracker.computed(job, gpu, nowMs);
  }

  @Override
  public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    tracker.failed(gpu);
    dispatcher.refresh(job);
    dirty = true; // the plan counted on that task
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    tracker.roundDone(job);
    dispatcher.refresh(job); // ready again, and ranked by its new round
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    tracker.jobDone(job);
    ranks.remove(job.id());
    dispatcher.remove(job.id());
  }

  @Override
  public boolean replanDue(long nowMs) {
    return dirty && (lastReplanMs == Long.MIN_VALUE || nowMs - lastReplanMs >= minIntervalMs);
  }

  @Override
  public java.util.OptionalLong wakeUpAtMs() {
    // a deferred re-plan needs an offer at the end of the quiet period even if nothing happens
    return dirty && lastReplanMs != Long.MIN_VALUE
        ? java.util.OptionalLong.of(lastReplanMs + minIntervalMs) : java.util.OptionalLong.empty();
  }

  @Override
  public void replan(ClusterView cluster, long nowMs) {
    dirty = false;
    lastReplanMs = nowMs;
    PlanningProblem p = tracker.snapshot(cluster, nowMs);
    List<GroupRef> order = null;
    if (relaxation) {
      FluidSolution s = FluidRelaxation.solve(p, lpOptions);
      if (s.optimal()) {
        order = MidpointOrder.of(p, s);
      } else {
        lpFailures++;
        LOG.warn("{}: relaxation not solved at {} ms ({} jobs); using the smith order", name,
            nowMs, p.jobs().size());
      }
    }
    if (order == null) {
      order = SmithOrder.of(p);
    }
    ranks.reset(p, order);
    dispatcher.rebuild(cluster);
    queues.clear();
    if (followPlan) {
      Plan plan = ListScheduler.schedule(p, order,
          new ListScheduler.Options(choice, switchMs, maxTasks), HareTracker.lastJobs(cluster));
      plan.perGpu().forEach((gpu, tasks) -> queues.put(gpu, new ArrayDeque<>(tasks)));
    }
  }

  /** Relaxation solves that failed and fell back to the stand-in order. */
  public long lpFailures() {
    return lpFailures;
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    if (!followPlan) {
      return dispatcher.assign(cluster, freeGpus, nowMs, tracker);
    }
    List<Assignment> out = new ArrayList<>();
    Map<String, Integer> taken = new HashMap<>();
    List<GpuView> idle = new ArrayList<>();
    for (GpuView gpu : freeGpus) {
      String job = fromPlan(cluster, gpu, taken);
      if (job != null) {
        out.add(new Assignment(gpu.id(), job));
        taken.merge(job, 1, Integer::sum);
      } else if (queueEmpty(gpu)) {
        idle.add(gpu);
      }
    }
    if (!idle.isEmpty()) {
      byRank(cluster, idle, taken, out);
    }
    return out;
  }

  private boolean queueEmpty(GpuView gpu) {
    ArrayDeque<PlannedTask> q = queues.get(gpu.id());
    return q == null || q.isEmpty();
  }

  /** The next task of the GPU's sequence if its round is ready; null to wait or if none. */
  private String fromPlan(ClusterView cluster, GpuView gpu, Map<String, Integer> taken) {
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
      if (job.readyTasks() - taken.getOrDefault(job.id(), 0) > 0) {
        q.pollFirst();
        return job.id();
      }
      q.pollFirst(); // other GPUs took this round's tasks
    }
    return null;
  }

  /** GPUs with nothing planned take ready jobs by the latest order, new jobs last by arrival. */
  private void byRank(ClusterView cluster, List<GpuView> idle, Map<String, Integer> taken,
      List<Assignment> out) {
    List<JobView> ready = new ArrayList<>();
    for (JobView j : cluster.jobs()) {
      if (j.readyTasks() - taken.getOrDefault(j.id(), 0) > 0) {
        ready.add(j);
      }
    }
    ready.sort(java.util.Comparator.comparingInt(ranks::rank));
    for (GpuView gpu : idle) {
      for (JobView j : ready) {
        int left = j.readyTasks() - taken.getOrDefault(j.id(), 0);
        if (left > 0 && j.times(gpu.type()) != null) {
          out.add(new Assignment(gpu.id(), j.id()));
          taken.merge(j.id(), 1, Integer::sum);
          break;
        }
      }
    }
  }
}
