package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import io.hare.core.plan.ExactPlanner;
import io.hare.core.plan.FluidRelaxation;
import io.hare.core.plan.Forecast;
import io.hare.core.plan.FluidSolution;
import io.hare.core.plan.GroupRef;
import io.hare.core.plan.ListScheduler;
import io.hare.core.plan.ListScheduler.GpuChoice;
import io.hare.core.plan.MidpointOrder;
import io.hare.core.plan.OrTools;
import io.hare.core.plan.Plan;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.plan.SmithOrder;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.FreeGpuIndex;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.Replan;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hare: the paper's Algorithm 1, re-planned online, and our measured improvements on it.
 *
 * <p><b>Re-plan</b> (after arrivals, at most every {@code replan-min-interval-ms}): snapshot
 * what is left of every job ({@link HareTracker}), solve the {@link FluidRelaxation relaxation}
 * (an LP over GPU types and time intervals), and derive
 * <ul>
 *   <li>an order of the remaining rounds: the paper's worst-case midpoints of the relaxed start
 *       times ({@code ordering=relaxation}, {@link MidpointOrder}) or Smith's rule on remaining GPU
 *       work ({@code ordering=smith}, {@link SmithOrder});
 *   <li>a type affinity per job: the GPU types on which the relaxation does at least
 *       {@code affinity-min-share} of the job's work. The relaxation solves the global matching
 *       of jobs to GPU types (jobs that gain most from a fast type get it), which greedy
 *       per-task choices cannot see. Other types are banned, or with a finite
 *       {@code affinity-penalty} p cost the job's tasks (1 + p) times their time at dispatch
 *       ({@link RoundPlacer}). A job a re-plan leaves out of the LP ({@code lp-max-jobs})
 *       keeps its last affinity for {@code affinity-stale-tasks} of its task times, then may use
 *       every type without ban or penalty ({@link TypeAffinity}).
 * </ul>
 * <b>Dispatch</b>: with {@code dispatch=priority} free GPUs go to ready rounds by that order,
 * each round to the allowed GPUs where it ends first ({@link PriorityDispatcher}); with
 * {@code dispatch=plan} the order is list-scheduled ({@link ListScheduler}) into a sequence per
 * GPU that each GPU follows, waiting for its next planned task, as the paper's executors do
 * ({@link PlanFollower}).
 *
 * <p><b>Exact plans of small states</b> ({@code exact.max-tasks}, {@code exact.max-gpus}): in a
 * cluster of at most {@code exact.max-gpus} GPUs every arrival re-plans, and a state with at most
 * {@code exact.max-tasks} unstarted tasks is solved exactly ({@link ExactPlanner}); each GPU
 * then follows its optimal sequence ({@link PlanFollower#follow}), idle where the optimum waits
 * for a faster GPU. It is tried at arrivals and once the work left drains within the limit
 * ({@link #exactTail}). Until the plan that covers a new arrival is installed, where CP-SAT
 * proves no plan in its limit, and whenever the state outgrows the limits, priority dispatch
 * decides; a task that ends far from its expected time re-plans, since the plan's waits were
 * right only for the times it was made with. Nor does an exact plan decide while a job's size is
 * undeclared (the optimum of a guessed size is none, and a job asking past its declaration must
 * lose the rank it bought) or a job is overdue (the starvation guard outranks the optimum of the
 * jobs present). On by default in clusters of at most 4 GPUs (README, item 6).
 *
 * <p><b>Starvation guard</b> ({@code max-wait-ms}, {@link WaitAging}): Smith's rule alone lets a
 * stream of short heavy jobs hold a long light one back for ever. A job with ready tasks that has
 * started none for {@code max-wait-ms} goes before the order, on any type it can run on, until
 * one of its tasks starts; so it starts a task at most {@code max-wait-ms} plus one task time
 * (the longest task on a GPU it can use, tasks are never preempted) after it got ready or its
 * last task started, behind only jobs that were overdue before it. Priority dispatch only.
 *
 * <p>Two registered settings: {@code hare-paper} is Algorithm 1 as published (relaxation
 * midpoints, earliest-free GPU, plan following, no affinity); {@code hare} is ours (Smith order,
 * relaxation affinity, priority dispatch), chosen by the measurements in the README. Every knob is
 * a {@code yarn.scheduler.hare.hare.*} key, so both can be compared and mixed.
 *
 * <p>Clairvoyant: it reads the number of rounds. A job without one is planned as having as many
 * rounds left as it has done.
 */
public final class HarePolicy implements SchedulingPolicy {

  public static final String NAME = "hare";
  public static final String PAPER_NAME = "hare-paper";

  private static final Logger LOG = LoggerFactory.getLogger(HarePolicy.class);

  /** Defaults that differ between the two registered settings. */
  private record Variant(String name, String ordering, String gpuChoice, String dispatch,
      double affinityMinShare, long maxWaitMs, int exactMaxTasks) {}

  private static final Variant OURS = new Variant(NAME, HareKeys.DEFAULT_ORDERING,
      HareKeys.DEFAULT_GPU_CHOICE, HareKeys.DEFAULT_DISPATCH,
      HareKeys.DEFAULT_AFFINITY_MIN_SHARE, HareKeys.DEFAULT_MAX_WAIT_MS,
      HareKeys.DEFAULT_EXACT_MAX_TASKS);
  // as published: no starvation guard (the paper's executors follow a fixed plan), no exact plans
  private static final Variant PAPER = new Variant(PAPER_NAME, "relaxation", "earliest-free",
      "plan", 0, 0, 0);
  /** Largest exact.max-tasks and exact.max-gpus accepted: far past what CP-SAT proves quickly. */
  static final int MAX_EXACT_SIZE = 1000;
  /**
   * How far, as a share of the task's compute time, a task may end from its expected end before
   * an exact plan being followed is made again: the plan's idle waits are only right for the
   * times it was made with. The simulator's tasks end when expected and never re-plan for this.
   */
  private static final double EXACT_DRIFT_SHARE = 0.1;
  /** Largest exact.work-limit accepted: a minute of CP-SAT's deterministic time. */
  static final double MAX_EXACT_WORK = 60;
  /** Longest max-wait-ms accepted: a year; longer is "off" in all but name. */
  static final long MAX_WAIT_LIMIT_MS = 365L * 24 * 3600 * 1000;
  /** Largest max-wait-size-share accepted: a wait of a thousand times the job's own run. */
  static final double MAX_WAIT_SIZE_SHARE = 1000;
  /** Longest sync-hold-grace-ms accepted: an hour. */
  static final long MAX_HOLD_GRACE_MS = 3_600_000L;
  /** Largest sync-hold-max-share accepted: far above any sync, i.e. hold whatever its length. */
  static final double MAX_HOLD_SHARE = 1e6;
  /**
   * Largest affinity-stale-tasks accepted, read as "never": kept (a ban or a penalty, as
   * affinity-penalty says) until the job's next LP.
   */
  static final double MAX_AFFINITY_STALE_TASKS = 1e6;
  /** Ready jobs {@link #firstInLine} looks at before it says "another job". */
  private static final int FIRST_SCAN = 256;

  private final String name;
  private final boolean relaxationOrder;
  private final double affinityMinShare;
  /** How many of its task times a job's affinity outlives the relaxation once left out of it. */
  private final double affinityStaleTasks;
  private final FluidRelaxation.Options lpOptions;
  private final int lpMaxJobs;
  private final long minIntervalMs;
  /** How a forecast list-schedules: as dispatch chooses GPUs ({@link #forecast}). */
  private final ListScheduler.Options forecastOptions;

  private final HareTracker tracker;
  private final FreeGpuIndex freeIndex = new FreeGpuIndex();
  /** Jobs that arrived since the last plan and still need a key (smith order only). */
  private final List<JobView> unranked = new java.util.ArrayList<>();
  /** Jobs that arrived since the last offer: their rounds may compete for the same GPUs. */
  private final List<JobView> arrivals = new java.util.ArrayList<>();
  private final RoundRanks ranks = new RoundRanks();
  private final PriorityDispatcher dispatcher;
  private final PlanFollower follower;
  /** Plans small states exactly; null when exact.max-tasks is 0. */
  private final ExactPlanner exact;
  private final int exactMaxGpus;
  private final int exactMaxTasks;
  /** Follows the exact plan, while {@link #followingExact}. */
  private final PlanFollower exactFollower;
  private boolean followingExact;
  /** The host serves several queues' guarantees: no exact plans ({@link #onQueuesGated}). */
  private boolean gated;
  /** The cluster's GPUs as the exact plan being followed knew them. */
  private long exactGpusVersion;
  /** GPUs at the last offer; -1 before the first. */
  private int clusterGpus = -1;
  /**
   * Unstarted tasks at the last exact plan {@link #exactTail} asked for; Long.MAX_VALUE when none
   * since the last arrival.
   */
  private long exactTriedAtTasks = Long.MAX_VALUE;
  /** The next re-plan is one {@link #exactTail} asked for: exact, or no change at all. */
  private boolean tailReplan;
  private final WaitAging aging;
  private boolean dirty;
  private long lastReplanMs = Long.MIN_VALUE;
  /**
   * Jobs that arrived since the snapshot of a re-plan started with {@link #startReplan} and not
   * installed yet; null when none is outstanding.
   */
  private List<JobView> lateArrivals;
  private long lpFailures;

  public HarePolicy(PolicyConfig c) {
    this(OURS, c);
  }

  /** The paper's Algorithm 1 as published, as defaults (keys still override). */
  public static HarePolicy paper(PolicyConfig c) {
    return new HarePolicy(PAPER, c);
  }

  private HarePolicy(Variant v, PolicyConfig c) {
    this.name = v.name();
    this.relaxationOrder = c.getChoice(HareKeys.ORDERING, v.ordering(), "relaxation",
        "smith").equals("relaxation");
    GpuChoice choice = c.getChoice(HareKeys.GPU_CHOICE, v.gpuChoice(),
        "earliest-finish", "earliest-free").equals("earliest-free")
        ? GpuChoice.EARLIEST_FREE : GpuChoice.EARLIEST_FINISH;
    boolean followPlan = c.getChoice(HareKeys.DISPATCH, v.dispatch(), "priority",
        "plan").equals("plan");
    this.affinityMinShare = c.getDouble(HareKeys.AFFINITY_MIN_SHARE,
        v.affinityMinShare(), 0, 1);
    this.affinityStaleTasks = c.getDouble(HareKeys.AFFINITY_STALE_TASKS,
        HareKeys.DEFAULT_AFFINITY_STALE_TASKS, 0, MAX_AFFINITY_STALE_TASKS);
    // Infinity is the ban; the range check names the key and [0.0, Infinity] for NaN or < 0
    double affinityPenalty = c.getDouble(HareKeys.AFFINITY_PENALTY,
        HareKeys.DEFAULT_AFFINITY_PENALTY, 0, Double.POSITIVE_INFINITY);
    this.lpOptions = new FluidRelaxation.Options(
        c.getInt(HareKeys.LP_INTERVALS, HareKeys.DEFAULT_LP_INTERVALS, 2,
            10_000),
        c.getLong(HareKeys.LP_TIME_LIMIT_MS,
            HareKeys.DEFAULT_LP_TIME_LIMIT_MS, 0, Long.MAX_VALUE));
    this.lpMaxJobs = c.getInt(HareKeys.LP_MAX_JOBS,
        HareKeys.DEFAULT_LP_MAX_JOBS, 0, Integer.MAX_VALUE);
    this.minIntervalMs = c.getLong(HareKeys.REPLAN_MIN_INTERVAL_MS,
        HareKeys.DEFAULT_REPLAN_MIN_INTERVAL_MS, 0, Long.MAX_VALUE);
    int maxTasks = c.getInt(HareKeys.PLAN_MAX_TASKS,
        HareKeys.DEFAULT_PLAN_MAX_TASKS, 1, Integer.MAX_VALUE);
    long switchMs = c.getLong(HareKeys.SWITCH_MS, HareKeys.DEFAULT_SWITCH_MS,
        0, Long.MAX_VALUE);
    boolean holds = c.getBoolean(HareKeys.SYNC_HOLD_ENABLED,
        HareKeys.DEFAULT_SYNC_HOLD_ENABLED);
    long grace = c.getLong(HareKeys.SYNC_HOLD_GRACE_MS,
        HareKeys.DEFAULT_SYNC_HOLD_GRACE_MS, 0, MAX_HOLD_GRACE_MS);
    double holdShare = c.getDouble(HareKeys.SYNC_HOLD_MAX_SHARE,
        HareKeys.DEFAULT_SYNC_HOLD_MAX_SHARE, 0, MAX_HOLD_SHARE);
    int exactTasks = c.getInt(HareKeys.EXACT_MAX_TASKS, followPlan ? 0 : v.exactMaxTasks(), 0,
        MAX_EXACT_SIZE);
    // exact plans need round ends corrected to what happened
    this.tracker = new HareTracker(!followPlan && exactTasks > 0);
    this.dispatcher = followPlan ? null
        : new PriorityDispatcher(ranks, tracker, holds ? grace : -1, holdShare, affinityPenalty);
    long maxWait = c.getLong(HareKeys.MAX_WAIT_MS, followPlan ? 0 : v.maxWaitMs(), 0,
        MAX_WAIT_LIMIT_MS);
    if (followPlan && maxWait > 0) {
      c.addProblem(HareKeys.MAX_WAIT_MS + ": the starvation guard works with "
          + HareKeys.DISPATCH + "=priority only (GPUs that follow a plan take no "
          + "other job), got " + maxWait + " with dispatch=plan; set it to 0 or use priority");
    }
    double waitShare = c.getDouble(HareKeys.MAX_WAIT_SIZE_SHARE,
        HareKeys.DEFAULT_MAX_WAIT_SIZE_SHARE, 0, MAX_WAIT_SIZE_SHARE);
    this.aging = new WaitAging(followPlan ? 0 : maxWait, waitShare);
    if (relaxationOrder || (!followPlan && affinityMinShare > 0)) {
      OrTools.load(); // about a second, once per JVM: at start-up, not in the first re-plan
    }
    this.follower = followPlan
        ? new PlanFollower(new ListScheduler.Options(choice, switchMs, maxTasks)) : null;
    this.exactMaxGpus = c.getInt(HareKeys.EXACT_MAX_GPUS, HareKeys.DEFAULT_EXACT_MAX_GPUS, 1,
        MAX_EXACT_SIZE);
    double work = c.getDouble(HareKeys.EXACT_WORK_LIMIT, HareKeys.DEFAULT_EXACT_WORK_LIMIT,
        0.001, MAX_EXACT_WORK);
    if (followPlan && exactTasks > 0) {
      c.addProblem(HareKeys.EXACT_MAX_TASKS + ": exact plans work with " + HareKeys.DISPATCH
          + "=priority only, got " + exactTasks + " with dispatch=plan; set it to 0 or use "
          + "priority");
    }
    this.exactMaxTasks = exactTasks;
    this.exact = exactTasks > 0 && !followPlan
        ? new ExactPlanner(exactTasks, exactMaxGpus, work) : null;
    this.exactFollower = exact != null ? new PlanFollower(new ListScheduler.Options(choice,
        switchMs, maxTasks)) : null;
    if (exact != null) {
      OrTools.load();
    }
    // priority dispatch gives a round the GPUs where it ends first
    this.forecastOptions = new ListScheduler.Options(followPlan ? choice
        : GpuChoice.EARLIEST_FINISH, switchMs, maxTasks);
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
    // an exact plan lets only the jobs it covers onto its GPUs: until the re-plan that covers
    // this one is installed (at once in the simulator, after the solve in the RM), the order
    // decides, as it does for any arrival between plans
    dropExact();
    exactTriedAtTasks = Long.MAX_VALUE; // the work left grew
    if (!relaxationOrder) {
      unranked.add(job); // keyed in assign, where the cluster's types are known
    }
    arrivals.add(job);
    if (lateArrivals != null) {
      lateArrivals.add(job);
    }
    refresh(job);
    aging.ready(job, nowMs);
  }

  @Override
  public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
    tracker.started(job, gpu, nowMs);
    freeIndex.remove(gpu);
    aging.started(job, nowMs);
    if (dispatcher != null && job.readyTasks() == 0) {
      dispatcher.remove(job.id());
    }
  }

  @Override
  public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
    long expectedMs = tracker.computed(job, gpu, nowMs);
    if (followingExact && expectedMs >= 0
        && Math.abs(nowMs - expectedMs) > EXACT_DRIFT_SHARE * Math.max(1, computeMs)) {
      dropExact(); // its times no longer hold: re-plan from what happened
    }
    freeIndex.add(gpu);
    if (dispatcher != null && job.runningTasks() == 0 && job.readyTasks() == 0) {
      dispatcher.refresh(job); // between rounds: it may hold GPUs for its next round
    }
  }

  @Override
  public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    tracker.failed(gpu);
    freeIndex.add(gpu);
    refresh(job);
    aging.ready(job, nowMs);
    dropExact(); // the plan counted on that task
  }

  @Override
  public void onTasksReady(JobView job, long nowMs) {
    refresh(job);
    aging.ready(job, nowMs);
    dropExact(); // the plan did not count on these tasks
  }

  /**
   * Re-plans, and until that plan is installed lets the order decide rather than an exact plan
   * that no longer holds (in the RM the solve runs beside the scheduler, so an offer may come
   * first).
   */
  private void dropExact() {
    dirty = true;
    tailReplan = false;
    followingExact = false;
  }

  @Override
  public void onTasksShown(JobView job, long nowMs) {
    refresh(job);
    aging.ready(job, nowMs); // no re-plan: the plan counted these tasks before they were hidden
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    tracker.roundDone(job);
    refresh(job); // ready again, and ranked by its new round
    aging.ready(job, nowMs);
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    tracker.jobDone(job);
    ranks.remove(job.id());
    aging.remove(job.id());
    if (dispatcher != null) {
      dispatcher.remove(job.id());
      dispatcher.affinity().remove(job.id());
    }
  }

  private void refresh(JobView job) {
    if (dispatcher != null) {
      dispatcher.refresh(job);
    }
  }

  /**
   * After an arrival or a failure, once the quiet period has passed; with priority dispatch only
   * while rounds compete for GPUs: ready tasks had to wait at the last offer, or the new jobs want
   * more GPUs of their fastest type than are free. Without contention every round starts at once
   * on its fastest type whatever the order, and a light-loaded cluster never pays for a solve.
   */
  @Override
  public boolean replanDue(long nowMs) {
    return dirty && (dispatcher == null || exactSized() || dispatcher.contended()
        || arrivalsCompete())
        && (lastReplanMs == Long.MIN_VALUE || nowMs - lastReplanMs >= minIntervalMs);
  }

  /**
   * Whether the cluster is small enough for exact plans: then every arrival re-plans, since an
   * exact plan knows only the jobs present when it was made.
   */
  private boolean exactSized() {
    return exact != null && !gated && clusterGpus >= 0 && clusterGpus <= exactMaxGpus;
  }

  /**
   * An exact plan's GPUs wait for their planned tasks, whichever queue these are in; the gate
   * offers GPUs to one queue's jobs at a time and drops answers past a queue's share, so a plan
   * followed through it can keep a GPU idle for a task it will not let start, until the
   * starvation guard drops the plan. With several queues the order dispatches instead.
   */
  /**
   * With {@code dispatch=plan} every GPU runs its planned sequence, and there is no order to fall
   * back on: the guarantees' offers would leave GPUs waiting for planned tasks they do not let
   * start, as exact plans did ({@link #onQueuesGated}).
   */
  @Override
  public Optional<String> queuesUnsupported() {
    return follower == null ? Optional.empty() : Optional.of(HareKeys.DISPATCH + "=plan "
        + "cannot serve several queues: each GPU follows the plan's sequence, which the queues' "
        + "guarantees would hold up; use " + HareKeys.DISPATCH + "=priority (the default) or "
        + "one queue");
  }

  @Override
  public void onQueuesGated(long nowMs) {
    if (!gated) {
      gated = true;
      if (followingExact) {
        dropExact();
      }
    }
  }

  private boolean arrivalsCompete() {
    if (!freeIndex.initialised()) {
      return !arrivals.isEmpty();
    }
    Map<GpuType, Integer> demand = new HashMap<>();
    for (JobView j : arrivals) {
      GpuType best = null;
      for (GpuType t : freeIndex.types()) {
        if (j.times(t) != null
            && (best == null || j.times(t).roundMs() < j.times(best).roundMs())) {
          best = t;
        }
      }
      if (best != null
          && demand.merge(best, j.readyTasks(), Integer::sum) > freeIndex.of(best).size()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public OptionalLong wakeUpAtMs() {
    // a deferred re-plan needs an offer at the end of the quiet period even if nothing happens
    OptionalLong replan = dirty && minIntervalMs > 0 && lastReplanMs != Long.MIN_VALUE
        ? OptionalLong.of(lastReplanMs + minIntervalMs) : OptionalLong.empty();
    // a job that becomes overdue may take a free GPU its affinity kept it from; with no GPU
    // free, the next one to free brings an offer anyway
    OptionalLong due = !freeIndex.initialised() || freeIndex.total() > 0
        ? aging.nextDueMs() : OptionalLong.empty();
    // likewise a job whose stale affinity expires
    if (dispatcher != null && (!freeIndex.initialised() || freeIndex.total() > 0)) {
      OptionalLong expiry = dispatcher.affinity().nextExpiryMs();
      if (expiry.isPresent()) {
        due = OptionalLong.of(due.isEmpty() ? expiry.getAsLong()
            : Math.min(due.getAsLong(), expiry.getAsLong()));
      }
    }
    // an exact plan stops being followed once a task runs late
    if (followingExact && (!freeIndex.initialised() || freeIndex.total() > 0)) {
      long late = tracker.nextLateMs(EXACT_DRIFT_SHARE);
      if (late != Long.MAX_VALUE) {
        due = OptionalLong.of(due.isEmpty() ? late : Math.min(due.getAsLong(), late));
      }
    }
    // GPUs held across a sync go to others when the hold lapses, if nothing happens before
    if (dispatcher != null && dispatcher.holdLapsesMs() != Long.MAX_VALUE) {
      long lapse = dispatcher.holdLapsesMs() + 1;
      due = OptionalLong.of(due.isEmpty() ? lapse : Math.min(due.getAsLong(), lapse));
    }
    if (replan.isEmpty() || due.isEmpty()) {
      return replan.isEmpty() ? due : replan;
    }
    return OptionalLong.of(Math.min(replan.getAsLong(), due.getAsLong()));
  }

  @Override
  public void replan(ClusterView cluster, long nowMs) {
    begin(cluster, nowMs).solve().install(cluster, nowMs);
  }

  /**
   * Priority dispatch ranks every job anew whenever a plan comes, so its re-plan splits: the
   * snapshot now, the solve on the host's thread, the ranks and affinity at the install. A plan
   * to follow is a schedule from the instant of its snapshot, so {@code dispatch=plan} does not.
   */
  @Override
  public Optional<Replan> startReplan(ClusterView cluster, long nowMs) {
    if (dispatcher == null) {
      return Optional.empty();
    }
    Replan r = begin(cluster, nowMs);
    lateArrivals = new ArrayList<>();
    return Optional.of(r);
  }

  private Replan begin(ClusterView cluster, long nowMs) {
    dirty = false;
    lastReplanMs = nowMs;
    lateArrivals = null;
    PlanningProblem p = tracker.snapshot(cluster, nowMs);
    boolean tryExact = exact != null && !gated && exact.fits(p) && exactApplies(cluster, nowMs);
    if (tailReplan) {
      tailReplan = false;
      // the queue drained within the limits: an exact plan or nothing; the order and affinity
      // stay as the last full re-plan set them
      return () -> {
        ExactPlanner.Result r = tryExact ? exact.plan(p).orElse(null) : null;
        return (c, t) -> {
          boolean late = lateArrivals != null && !lateArrivals.isEmpty();
          lateArrivals = null;
          if (r != null && !late) {
            followExact(c, r);
          }
        };
      };
    }
    return () -> solve(p, nowMs, tryExact);
  }

  private void followExact(ClusterView cluster, ExactPlanner.Result r) {
    if (gated) {
      return; // the plan was solved before the queues' gate came in
    }
    followingExact = true;
    exactFollower.follow(r.plan());
    exactGpusVersion = cluster.gpusVersion();
  }

  /**
   * The heavy part of a re-plan, on any thread: it reads only the snapshot and the policy's
   * settings.
   */
  private Replan.Solved solve(PlanningProblem p, long startMs, boolean tryExact) {
    // the Smith order as job keys: the LP takes its first jobs, and every group's key follows
    // from its job's, so its groups are listed only for a plan to follow
    double[] smithKeys = relaxationOrder ? null : SmithOrder.jobKeys(p);
    List<GroupRef> order = null;
    PlanningProblem lp = null;
    FluidSolution lpSolution = null;
    if (relaxationOrder || (dispatcher != null && affinityMinShare > 0)) {
      // the midpoint order needs every job in the LP; affinity only the jobs that run soon
      lp = relaxationOrder ? p
          : p.firstJobs(SmithOrder.jobOrder(p, smithKeys, lpMaxJobs), lpMaxJobs);
      lpSolution = FluidRelaxation.solve(lp, lpOptions);
      if (lpSolution.optimal() && relaxationOrder) {
        order = MidpointOrder.of(p, lpSolution);
      } else if (!lpSolution.optimal()) {
        LOG.warn("{}: relaxation not solved at {} ms ({} jobs); using the smith order, no "
            + "affinity", name, startMs, p.jobs().size());
        if (smithKeys == null) {
          smithKeys = SmithOrder.jobKeys(p); // the stand-in order
        }
      }
    }
    // the ranks and affinity are set too: they decide again once the state outgrows the limits
    ExactPlanner.Result exactPlan = tryExact ? exact.plan(p).orElse(null) : null;
    Solution plan = new Solution(p, startMs, smithKeys, order, lp, lpSolution, exactPlan);
    return (cluster, nowMs) -> install(cluster, plan);
  }

  /** What a solve found, to install. */
  private record Solution(PlanningProblem p, long startMs, double[] smithKeys,
      List<GroupRef> order, PlanningProblem lp, FluidSolution lpSolution,
      ExactPlanner.Result exactPlan) {}

  private void install(ClusterView cluster, Solution plan) {
    PlanningProblem p = plan.p();
    FluidSolution s = plan.lpSolution();
    if (s != null && s.optimal()) {
      if (dispatcher != null) {
        setAffinity(cluster, plan.lp(), s, plan.lp().jobs().size() < p.jobs().size(),
            plan.startMs());
      }
    } else if (s != null) {
      lpFailures++;
      if (dispatcher != null) {
        dispatcher.affinity().clear();
      }
    }
    if (plan.order() != null) {
      ranks.reset(p, plan.order());
    } else {
      ranks.reset(p, plan.smithKeys());
    }
    unranked.clear();
    List<JobView> late = lateArrivals;
    lateArrivals = null;
    // a job that arrived during the solve is not in the exact plan: the order decides until the
    // re-plan its arrival asked for
    followingExact = false;
    if (plan.exactPlan() != null && (late == null || late.isEmpty())) {
      followExact(cluster, plan.exactPlan());
    }
    if (late != null) {
      // installed after its snapshot: jobs gone since lose their ranks, and jobs that arrived
      // since are ranked by their own keys at the next assign, as every arrival between plans
      for (int n = 0; n < p.jobs().size(); n++) {
        if (cluster.job(p.jobs().get(n).id()) == null) {
          ranks.remove(p.jobs().get(n).id());
        }
      }
      if (!relaxationOrder) {
        unranked.addAll(late);
      }
    }
    if (dispatcher != null) {
      dispatcher.rebuild(cluster);
    } else {
      follower.replan(p, plan.order() != null ? plan.order() : SmithOrder.of(p),
          HareTracker.lastJobs(cluster));
    }
  }

  /**
   * Affinity from the LP's type shares. With {@code partial}, jobs left out of the LP keep theirs
   * for {@code affinity-stale-tasks} of their task times after the relaxation that set it: it
   * matched them to types against jobs and free GPUs that have changed since, so a ban (or
   * penalty) kept for ever would keep a job off free GPUs it could use well.
   */
  private void setAffinity(ClusterView cluster, PlanningProblem p, FluidSolution s,
      boolean partial, long nowMs) {
    TypeAffinity affinity = dispatcher.affinity();
    if (!partial) {
      affinity.clear();
    }
    if (affinityMinShare <= 0) {
      return;
    }
    if (partial && affinityStaleTasks < MAX_AFFINITY_STALE_TASKS) {
      Set<String> inLp = new HashSet<>();
      p.jobs().forEach(j -> inLp.add(j.id()));
      for (String id : affinity.jobs()) {
        JobView j = cluster.job(id);
        if (!inLp.contains(id) && j != null) {
          affinity.expireAfter(id, Math.round(affinityStaleTasks * taskMs(cluster, j)));
        }
      }
    }
    for (int n = 0; n < p.jobs().size(); n++) {
      if (cluster.job(p.jobs().get(n).id()) == null) {
        continue; // left after the snapshot
      }
      Set<GpuType> ok = new HashSet<>();
      for (int m = 0; m < p.types().size(); m++) {
        if (s.typeShare()[n][m] >= affinityMinShare) {
          ok.add(p.types().get(m));
        }
      }
      if (!ok.isEmpty()) {
        affinity.put(p.jobs().get(n).id(), ok, nowMs);
      } else {
        affinity.remove(p.jobs().get(n).id());
      }
    }
  }

  /** The job's task time: its compute time on the fastest type the cluster has GPUs of. */
  private static double taskMs(ClusterView cluster, JobView j) {
    double tc = Double.POSITIVE_INFINITY;
    for (GpuType t : cluster.gpuTypes()) {
      if (cluster.gpuCount(t) > 0 && j.times(t) != null) {
        tc = Math.min(tc, j.times(t).computeMs());
      }
    }
    return Double.isInfinite(tc) ? 0 : tc;
  }

  /** Relaxation solves that failed and fell back to the stand-in order. */
  public long lpFailures() {
    return lpFailures;
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    if (!unranked.isEmpty()) {
      rankArrivals(cluster);
    }
    arrivals.clear();
    aging.types(cluster);
    clusterGpus = cluster.gpus().size();
    if (followingExact && (cluster.gpusVersion() != exactGpusVersion
        || !aging.overdue(cluster, nowMs).isEmpty()
        || tracker.late(nowMs, EXACT_DRIFT_SHARE))) {
      // GPUs came or went (the plan may wait on one that is gone), a job waited past the
      // starvation guard (the optimum of the jobs present may keep a long job waiting for as
      // long as shorter ones arrive, and the guard outranks it), or a task runs late, so the
      // plan may keep GPUs idle for one that does not free when it expected
      dropExact();
      exactTriedAtTasks = Long.MAX_VALUE;
    } else if (!followingExact && !dirty && exactSized()) {
      exactTail(cluster, nowMs);
    }
    if (followingExact) {
      return exactFollower.assign(cluster, freeGpus, ranks);
    }
    return dispatcher != null ? dispatcher.assign(cluster, freeGpus, nowMs, tracker, freeIndex,
        aging.overdue(cluster, nowMs)) : follower.assign(cluster, freeGpus, ranks);
  }

  /** Priority dispatch keeps a warm GPU for the job its order would serve there anyway. */
  @Override
  public boolean keepsWarmGpus() {
    return dispatcher != null;
  }

  @Override
  public Optional<String> firstInLine(ClusterView cluster, GpuType type, long nowMs) {
    if (dispatcher == null) {
      return Optional.of(""); // plan following: every GPU follows its planned sequence
    }
    if (followingExact) {
      return Optional.of(exactFollower.firstInLine(cluster, type));
    }
    if (!unranked.isEmpty()) {
      rankArrivals(cluster);
    }
    return dispatcher.firstInLine(cluster, type, aging.overdue(cluster, nowMs), FIRST_SCAN,
        nowMs);
  }

  @Override
  public List<String> line(ClusterView cluster, GpuType type, int n, long nowMs) {
    if (dispatcher == null) {
      return List.of();
    }
    if (followingExact) {
      return exactFollower.line(cluster, type, n);
    }
    if (!unranked.isEmpty()) {
      rankArrivals(cluster);
    }
    List<String> line = dispatcher.line(cluster, type, aging.overdue(cluster, nowMs), FIRST_SCAN,
        n, nowMs);
    return line.isEmpty() || !line.get(line.size() - 1).isEmpty() ? line
        : line.subList(0, line.size() - 1);
  }

  /**
   * Once the work left shrinks within exact.max-tasks, a re-plan at the next offer plans it
   * exactly: arrivals alone would leave a queue that drains without new jobs to priority
   * dispatch to its end. Where CP-SAT proves no plan in its limit, tried again only once a
   * quarter of those tasks has started, so a hard state costs a few solves, not one per offer.
   */
  private void exactTail(ClusterView cluster, long nowMs) {
    long left = 0;
    for (JobView j : cluster.jobs()) {
      left += HareTracker.unstartedTasks(j);
      if (left > exactMaxTasks) {
        return;
      }
    }
    if (left > 0 && (exactTriedAtTasks == Long.MAX_VALUE || 4 * left <= 3 * exactTriedAtTasks)
        && exactApplies(cluster, nowMs)) {
      exactTriedAtTasks = left;
      dirty = true;
      tailReplan = true;
    }
  }

  /**
   * Whether an exact plan may decide now: every job's size is declared (the optimum of a guessed
   * size is no optimum, and a job that asks past its declaration must not keep the rank its
   * declaration bought), no job is overdue (the starvation guard decides first), and no task
   * runs late and no GPU is leaving (a plan would count on its GPU freeing when it might not: a
   * task on a node that fell silent stays running in the RM for as long as YARN lists the node).
   * O(jobs + GPUs): called only for states within the exact limits.
   */
  private boolean exactApplies(ClusterView cluster, long nowMs) {
    for (JobView j : cluster.jobs()) {
      if (j.rounds().isEmpty()) {
        return false;
      }
    }
    for (GpuView g : cluster.gpus()) {
      if (g.leaving()) {
        return false;
      }
    }
    return aging.overdue(cluster, nowMs).isEmpty() && !tracker.late(nowMs, EXACT_DRIFT_SHARE);
  }

  /** Smith keys for jobs that arrived since the last plan, comparable with the plan's. */
  private void rankArrivals(ClusterView cluster) {
    for (JobView j : unranked) {
      if (cluster.job(j.id()) == null || ranks.has(j.id())) {
        continue;
      }
      double tc = taskMs(cluster, j);
      if (tc == 0) {
        tc = Double.POSITIVE_INFINITY; // no GPU it can use: ranked last
      }
      int rounds = j.rounds().orElse(Math.max(2 * j.roundsDone(), j.roundsDone() + 1));
      long tasks = j.readyTasks() + (long) Math.max(0, rounds - j.roundsDone() - 1)
          * j.tasksPerRound();
      ranks.put(j, SmithOrder.key(tasks * tc, j.weight()));
      refresh(j);
    }
    unranked.clear();
  }

  /**
   * The state now, list-scheduled in the order dispatch follows: each job's rounds by the keys of
   * the last plan (jobs that arrived since by their own Smith keys; under the relaxation order
   * they have none and go last), on the GPUs dispatch would choose. Neither the type affinity nor
   * the starvation guard is modelled: the forecast is the order's, an estimate ({@link Forecast}).
   */
  @Override
  public Optional<Supplier<Forecast>> forecast(ClusterView cluster, long nowMs) {
    if (!unranked.isEmpty()) {
      rankArrivals(cluster);
    }
    PlanningProblem p = tracker.snapshot(cluster, nowMs);
    List<GroupRef> order = ranks.order(p);
    String[] last = HareTracker.lastJobs(cluster);
    return Optional.of(() -> Forecast.listScheduled(p, order, forecastOptions, last));
  }

  /** Exposed for tests: the latest plan when following plans, else null. */
  Plan plan() {
    return follower == null ? null : follower.plan();
  }
}
