package io.hare.core.policy.hare;

import io.hare.core.SchedulerKeys;

/**
 * The {@code yarn.scheduler.hare.hare.*} keys of the hare policies ({@code hare},
 * {@code hare-paper}) with their {@code DEFAULT_} twins, beside the code that reads them. Like
 * every scheduler key they are documented in {@code hare-default.xml}, which
 * {@code SchedulerKeysTest} keeps in step, and known to the unknown-key check through
 * {@link io.hare.core.policy.Policies#keyClasses()}.
 */
public final class HareKeys {

  private HareKeys() {}

  /** Where the family's keys start; not itself a key (and so not public). */
  private static final String ROOT = SchedulerKeys.PREFIX + "hare.";

  /** How rounds are ordered: Smith's rule on remaining GPU work, or relaxation midpoints (paper). */
  public static final String ORDERING = ROOT + "ordering";
  public static final String DEFAULT_ORDERING = "smith";

  /** How list scheduling picks a GPU: earliest-finish (ours) or earliest-free (the paper's). */
  public static final String GPU_CHOICE = ROOT + "gpu-choice";
  public static final String DEFAULT_GPU_CHOICE = "earliest-finish";

  /**
   * How GPUs get tasks between re-plans: priority (work-conserving dispatch by the order, ours)
   * or plan (each GPU follows its list-scheduled sequence, as the paper's executors do).
   */
  public static final String DISPATCH = ROOT + "dispatch";
  public static final String DEFAULT_DISPATCH = "priority";

  /** Least share of a job's relaxed work on a GPU type for the job to use that type; 0: any. */
  public static final String AFFINITY_MIN_SHARE = ROOT + "affinity-min-share";
  public static final double DEFAULT_AFFINITY_MIN_SHARE = 0.05;

  /**
   * What a GPU type outside a job's affinity costs it at dispatch: the job's task there compares
   * as if it took (1 + this) times its real time. Infinity: the type is banned.
   */
  public static final String AFFINITY_PENALTY = ROOT + "affinity-penalty";
  public static final double DEFAULT_AFFINITY_PENALTY = Double.POSITIVE_INFINITY;

  /**
   * How many of its own task times a job's type affinity outlives the relaxation that set it,
   * once a re-plan leaves the job out of the LP (lp-max-jobs); then it may use every type
   * without penalty.
   */
  public static final String AFFINITY_STALE_TASKS = ROOT + "affinity-stale-tasks";
  public static final double DEFAULT_AFFINITY_STALE_TASKS = 1e6;

  /** Time intervals of the relaxation LP solved at each re-plan. */
  public static final String LP_INTERVALS = ROOT + "lp-intervals";
  public static final int DEFAULT_LP_INTERVALS = 12;

  /**
   * Most jobs in one re-plan's LP, the first ones in Smith order (0: all). The others are far
   * from running; they keep the type affinity of their last LP, if any.
   */
  public static final String LP_MAX_JOBS = ROOT + "lp-max-jobs";
  public static final int DEFAULT_LP_MAX_JOBS = 50;

  /** Solver time limit per re-plan; on timeout the stand-in order is used for that plan. */
  public static final String LP_TIME_LIMIT_MS = ROOT + "lp-time-limit-ms";
  public static final long DEFAULT_LP_TIME_LIMIT_MS = 5000L;

  /** Least time between two re-plans; arrivals in between are queued by the stand-in order. */
  public static final String REPLAN_MIN_INTERVAL_MS = ROOT + "replan-min-interval-ms";
  public static final long DEFAULT_REPLAN_MIN_INTERVAL_MS = 0L;

  /** Most tasks one plan lays out; later tasks follow the order without a fixed GPU. */
  public static final String PLAN_MAX_TASKS = ROOT + "plan-max-tasks";
  public static final int DEFAULT_PLAN_MAX_TASKS = 200000;

  /** Expected cost of a GPU switching to another job's task, charged by the planner. */
  public static final String SWITCH_MS = ROOT + "switch-ms";
  public static final long DEFAULT_SWITCH_MS = 0L;

  /**
   * Starvation guard of the hare policy (dispatch=priority): a job with ready tasks that has
   * started none for this long goes before the Smith order, on any GPU type it can run on, until
   * one starts. Bound: a task start at most this plus one task time after the job got ready or
   * its last task started. 0: off (pure Smith order, which can starve long light jobs).
   */
  public static final String MAX_WAIT_MS = ROOT + "max-wait-ms";
  public static final long DEFAULT_MAX_WAIT_MS = 1_800_000L;

  /**
   * When &gt; 0, the starvation guard's wait for a job of known size is this share of its
   * critical path (rounds x fastest compute + sync) instead of max-wait-ms; 0: max-wait-ms for
   * every job.
   */
  public static final String MAX_WAIT_SIZE_SHARE = ROOT + "max-wait-size-share";
  public static final double DEFAULT_MAX_WAIT_SIZE_SHARE = 0;

  /**
   * Holds across a sync (dispatch=priority): a free GPU that a job between rounds would take for
   * its next round is held for it until its sync is expected to end, open only to tasks that end
   * by then (backfilling).
   */
  public static final String SYNC_HOLD_ENABLED = ROOT + "sync-hold.enabled";
  public static final boolean DEFAULT_SYNC_HOLD_ENABLED = true;

  /** How long past a sync's expected end its hold lasts (a slow sync, a slow AM). */
  public static final String SYNC_HOLD_GRACE_MS = ROOT + "sync-hold-grace-ms";
  public static final long DEFAULT_SYNC_HOLD_GRACE_MS = 1000L;

  /**
   * Longest sync still to run for which a free GPU is held, as a share of the job's compute
   * time on that GPU: a longer hold idles the GPU for longer than the delay it spares the job.
   */
  public static final String SYNC_HOLD_MAX_SHARE = ROOT + "sync-hold-max-share";
  public static final double DEFAULT_SYNC_HOLD_MAX_SHARE = 0.5;

  /**
   * States with at most this many unstarted tasks (and at most exact.max-gpus GPUs) are planned
   * exactly (CP-SAT, {@link io.hare.core.plan.ExactPlanner}) and the plan followed task by task
   * (dispatch=priority only); 0: never, the default with dispatch=plan.
   */
  public static final String EXACT_MAX_TASKS = ROOT + "exact.max-tasks";
  public static final int DEFAULT_EXACT_MAX_TASKS = 24;

  /** Most GPUs a cluster may have for its states to be planned exactly. */
  public static final String EXACT_MAX_GPUS = ROOT + "exact.max-gpus";
  public static final int DEFAULT_EXACT_MAX_GPUS = 4;

  /**
   * CP-SAT's deterministic time limit per exact plan (about seconds of one core): deterministic,
   * so the simulator and the RM reach the same plan. Only plans CP-SAT proves optimal within it
   * are followed.
   */
  public static final String EXACT_WORK_LIMIT = ROOT + "exact.work-limit";
  public static final double DEFAULT_EXACT_WORK_LIMIT = 0.5;
}
