package io.hare.core;

/**
 * Every {@code yarn.scheduler.hare.*} key with its {@code DEFAULT_} twin. The ResourceManager
 * plugin reads them from yarn-site.xml; the simulator reads the same keys (as {@code -D}
 * options), so one policy configuration drives both. Each key is documented in
 * {@code hare-default.xml}; {@code SchedulerKeysTest} keeps the two in sync.
 */
public final class SchedulerKeys {

  private SchedulerKeys() {}

  public static final String PREFIX = "yarn.scheduler.hare.";

  /** Policy by short name (hare, hlas, ...) or fully qualified class name. */
  public static final String POLICY = PREFIX + "policy";
  public static final String DEFAULT_POLICY = "hare";

  /** Seed for the policy's tie breaking. */
  public static final String SEED = PREFIX + "seed";
  public static final long DEFAULT_SEED = 0L;

  // --- hare (Algorithm 1 and our extensions) ---

  /** How rounds are ordered: Smith's rule on remaining GPU work, or relaxation midpoints (paper). */
  public static final String HARE_ORDERING = PREFIX + "hare.ordering";
  public static final String DEFAULT_HARE_ORDERING = "smith";

  /** How list scheduling picks a GPU: earliest-finish (ours) or earliest-free (the paper's). */
  public static final String HARE_GPU_CHOICE = PREFIX + "hare.gpu-choice";
  public static final String DEFAULT_HARE_GPU_CHOICE = "earliest-finish";

  /**
   * How GPUs get tasks between re-plans: priority (work-conserving dispatch by the order, ours)
   * or plan (each GPU follows its list-scheduled sequence, as the paper's executors do).
   */
  public static final String HARE_DISPATCH = PREFIX + "hare.dispatch";
  public static final String DEFAULT_HARE_DISPATCH = "priority";

  /** Least share of a job's relaxed work on a GPU type for the job to use that type; 0: any. */
  public static final String HARE_AFFINITY_MIN_SHARE = PREFIX + "hare.affinity-min-share";
  public static final double DEFAULT_HARE_AFFINITY_MIN_SHARE = 0.05;

  /**
   * How many of its own task times a job's type affinity outlives the relaxation that set it,
   * once a re-plan leaves the job out of the LP (lp-max-jobs); then it may use every type.
   */
  public static final String HARE_AFFINITY_STALE_TASKS = PREFIX + "hare.affinity-stale-tasks";
  public static final double DEFAULT_HARE_AFFINITY_STALE_TASKS = 1e6;

  /** Time intervals of the relaxation LP solved at each re-plan. */
  public static final String HARE_LP_INTERVALS = PREFIX + "hare.lp-intervals";
  public static final int DEFAULT_HARE_LP_INTERVALS = 12;

  /**
   * Most jobs in one re-plan's LP, the first ones in Smith order (0: all). The others are far
   * from running; they keep the type affinity of their last LP, if any.
   */
  public static final String HARE_LP_MAX_JOBS = PREFIX + "hare.lp-max-jobs";
  public static final int DEFAULT_HARE_LP_MAX_JOBS = 50;

  /** Solver time limit per re-plan; on timeout the stand-in order is used for that plan. */
  public static final String HARE_LP_TIME_LIMIT_MS = PREFIX + "hare.lp-time-limit-ms";
  public static final long DEFAULT_HARE_LP_TIME_LIMIT_MS = 5000L;

  /** Least time between two re-plans; arrivals in between are queued by the stand-in order. */
  public static final String HARE_REPLAN_MIN_INTERVAL_MS = PREFIX + "hare.replan-min-interval-ms";
  public static final long DEFAULT_HARE_REPLAN_MIN_INTERVAL_MS = 0L;

  /** Most tasks one plan lays out; later tasks follow the order without a fixed GPU. */
  public static final String HARE_PLAN_MAX_TASKS = PREFIX + "hare.plan-max-tasks";
  public static final int DEFAULT_HARE_PLAN_MAX_TASKS = 200000;

  /** Expected cost of a GPU switching to another job's task, charged by the planner. */
  public static final String HARE_SWITCH_MS = PREFIX + "hare.switch-ms";
  public static final long DEFAULT_HARE_SWITCH_MS = 0L;

  /**
   * Starvation guard of the hare policy (dispatch=priority): a job with ready tasks that has
   * started none for this long goes before the Smith order, on any GPU type it can run on, until
   * one starts. Bound: a task start at most this plus one task time after the job got ready or
   * its last task started. 0: off (pure Smith order, which can starve long light jobs).
   */
  public static final String HARE_MAX_WAIT_MS = PREFIX + "hare.max-wait-ms";
  public static final long DEFAULT_HARE_MAX_WAIT_MS = 1_800_000L;

  /**
   * When &gt; 0, the starvation guard's wait for a job of known size is this share of its
   * critical path (rounds x fastest compute + sync) instead of max-wait-ms; 0: max-wait-ms for
   * every job.
   */
  public static final String HARE_MAX_WAIT_SIZE_SHARE = PREFIX + "hare.max-wait-size-share";
  public static final double DEFAULT_HARE_MAX_WAIT_SIZE_SHARE = 0;

  /**
   * Holds across a sync (dispatch=priority): a free GPU that a job between rounds would take for
   * its next round is held for it until its sync is expected to end, open only to tasks that end
   * by then (backfilling).
   */
  public static final String HARE_SYNC_HOLD_ENABLED = PREFIX + "hare.sync-hold.enabled";
  public static final boolean DEFAULT_HARE_SYNC_HOLD_ENABLED = true;

  /** How long past a sync's expected end its hold lasts (a slow sync, a slow AM). */
  public static final String HARE_SYNC_HOLD_GRACE_MS = PREFIX + "hare.sync-hold-grace-ms";
  public static final long DEFAULT_HARE_SYNC_HOLD_GRACE_MS = 1000L;

  /**
   * Longest sync still to run for which a free GPU is held, as a share of the job's compute
   * time on that GPU: a longer hold idles the GPU for longer than the delay it spares the job.
   */
  public static final String HARE_SYNC_HOLD_MAX_SHARE = PREFIX + "hare.sync-hold-max-share";
  public static final double DEFAULT_HARE_SYNC_HOLD_MAX_SHARE = 0.5;

  // --- hlas ---

  /**
   * HLAS aging: a job's priority key is its weighted attained service (GPU-ms on the cluster's
   * average GPU per unit of weight) plus this rate times its arrival time (ms); lower goes first.
   * 0 is pure least attained service; a job that arrives more than (service / rate) ms after
   * another cannot pass it.
   */
  public static final String HLAS_AGING_RATE = PREFIX + "hlas.aging-rate";
  public static final double DEFAULT_HLAS_AGING_RATE = 0.1;

  /** Whether a task declines a slow GPU type when a faster one frees soon enough. */
  public static final String HLAS_SLOW_TYPE_WAIT_ENABLED = PREFIX + "hlas.slow-type-wait.enabled";
  public static final boolean DEFAULT_HLAS_SLOW_TYPE_WAIT_ENABLED = true;

  /** A task declines a slow type only if waiting finishes it more than (1 + margin) x sooner. */
  public static final String HLAS_SLOW_TYPE_WAIT_MARGIN = PREFIX + "hlas.slow-type-wait.margin";
  public static final double DEFAULT_HLAS_SLOW_TYPE_WAIT_MARGIN = 1.0;

  // --- baselines ---

  /**
   * tiresias-las: attained-service thresholds between its priority queues, in GPU-seconds,
   * comma-separated and increasing; n thresholds make n+1 queues.
   */
  public static final String TIRESIAS_QUEUE_THRESHOLDS_GPU_S =
      PREFIX + "tiresias.queue-thresholds-gpu-s";
  public static final String DEFAULT_TIRESIAS_QUEUE_THRESHOLDS_GPU_S = "3250,7200";

  /**
   * tiresias-las: PromoteKnob, the starvation guard; a waiting job returns to the top queue after
   * waiting this many times its executed time. 0 turns the guard off.
   */
  public static final String TIRESIAS_PROMOTE_KNOB = PREFIX + "tiresias.promote-knob";
  public static final double DEFAULT_TIRESIAS_PROMOTE_KNOB = 8.0;

  /**
   * allox: share of the waiting jobs, oldest first, the matching considers (never fewer than the
   * free GPUs), in (0, 1].
   */
  public static final String ALLOX_ALPHA = PREFIX + "allox.alpha";
  public static final double DEFAULT_ALLOX_ALPHA = 0.3;

  // --- YARN scheduler (the ResourceManager plugin, io.hare.yarn.scheduler) ---

  /**
   * Node attribute that names a node's GPU model, read with either prefix: {@code rm.yarn.io}
   * (centralized, wins when both are set) or {@code nm.yarn.io} (distributed).
   */
  public static final String GPU_TYPE_ATTRIBUTE = PREFIX + "gpu-type.attribute";
  public static final String DEFAULT_GPU_TYPE_ATTRIBUTE = "gpu-model";

  /** GPU type of a node that has GPUs but no (valid) GPU-model attribute. */
  public static final String GPU_TYPE_DEFAULT = PREFIX + "gpu-type.default";
  public static final String DEFAULT_GPU_TYPE_DEFAULT = "generic";

  /**
   * Whether a GPU node that does not state {@code gpu-isolation} (node attribute, see
   * {@code GpuDevices}) has its GPUs isolated per container by YARN: {@code true}, {@code false},
   * or {@code auto}: as this RM's own configuration would set up a NodeManager (isolated when
   * {@code yarn.nodemanager.resource-plugins} lists {@code yarn.io/gpu} and the container
   * executor is the {@code LinuxContainerExecutor}), right where one yarn-site.xml serves the
   * whole cluster. On an isolated node Hare tells containers no device and uses no standbys.
   */
  public static final String GPU_ISOLATION_DEFAULT = PREFIX + "gpu-isolation.default";
  public static final String DEFAULT_GPU_ISOLATION_DEFAULT = "auto";

  /** Largest job weight a user may claim with the hare.weight tag; larger ones are clamped. */
  public static final String WEIGHT_MAX = PREFIX + "weight.max";
  public static final double DEFAULT_WEIGHT_MAX = 10.0;

  /** PROFILES.csv with task times per (model, GPU type); empty: no profiles. */
  public static final String PROFILES_FILE = PREFIX + "profiles.file";
  public static final String DEFAULT_PROFILES_FILE = "";

  /** Compute time assumed for one task of a job without a profiled model, on every type. */
  public static final String PROFILES_DEFAULT_COMPUTE_MS = PREFIX + "profiles.default-compute-ms";
  public static final long DEFAULT_PROFILES_DEFAULT_COMPUTE_MS = 60000L;

  /** How many measured tasks the profile is worth when measured run times refine it. */
  public static final String PROFILES_PRIOR_WEIGHT = PREFIX + "profiles.prior-weight";
  public static final double DEFAULT_PROFILES_PRIOR_WEIGHT = 3.0;

  /** Measured tasks after which the estimate becomes a moving average over about this many. */
  public static final String PROFILES_WINDOW = PREFIX + "profiles.window";
  public static final int DEFAULT_PROFILES_WINDOW = 20;

  /** Least time between two re-plans of the policy in the ResourceManager (heartbeat path). */
  public static final String REPLAN_INTERVAL_MS = PREFIX + "replan-interval-ms";
  public static final long DEFAULT_REPLAN_INTERVAL_MS = 1000L;

  /**
   * How long a node may go without a heartbeat before it gets no new containers and its GPUs
   * leave the policy's view; it is back at its next heartbeat. YARN's RM keeps a silent node
   * RUNNING until {@code yarn.nm.liveness-monitor.expiry-interval-ms} (10 minutes by default),
   * and Hare places on any node, not only on the one heartbeating.
   */
  public static final String NODE_LIVENESS_GRACE_MS = PREFIX + "node.liveness-grace-ms";
  public static final long DEFAULT_NODE_LIVENESS_GRACE_MS = 10_000L;

  /**
   * Memory a GPU node keeps free per free GPU from containers without a GPU (ApplicationMasters
   * excepted), in MB: -1 (auto) for the largest one-GPU task asked for so far, capped at the
   * node's memory per GPU; 0 for none.
   */
  public static final String NON_GPU_RESERVE_MEMORY_MB =
      PREFIX + "non-gpu.reserve-per-gpu.memory-mb";
  public static final long DEFAULT_NON_GPU_RESERVE_MEMORY_MB = -1L;

  /** As {@link #NON_GPU_RESERVE_MEMORY_MB}, for vcores. */
  public static final String NON_GPU_RESERVE_VCORES = PREFIX + "non-gpu.reserve-per-gpu.vcores";
  public static final long DEFAULT_NON_GPU_RESERVE_VCORES = -1L;

  /**
   * Whether the scheduler pre-launches: shortly before a busy GPU frees, the job first in line for
   * its type gets a standby container on that node (the task's memory; no vcores, no GPU) if its
   * AM takes them ({@code hare.standby=true}); when the GPU frees and goes to that job, the
   * standby is given the GPU (a container resource increase) instead of a new container being
   * launched. Needs NodeManagers that do not isolate GPU devices per container (YARN's GPU
   * plugin assigns devices only at launch), hence off by default; see docs/performance.md for
   * what it gains and costs.
   */
  public static final String STANDBY_ENABLED = PREFIX + "standby.enabled";
  public static final boolean DEFAULT_STANDBY_ENABLED = false;

  /** How long before a busy GPU's task is expected to end its standby may be launched. */
  public static final String STANDBY_LEAD_MS = PREFIX + "standby.lead-ms";
  public static final long DEFAULT_STANDBY_LEAD_MS = 3000L;

  // --- admin: GPU-type mapping file, per-user/per-queue weight caps, queue ACLs (sched-admin) ---

  /**
   * Admin mapping file: lines {@code HOST_OR_GLOB GPU_MODEL}, first match wins; the scheduler
   * registers the models as {@code rm.yarn.io} node attributes. Empty: no mapping.
   */
  public static final String GPU_TYPE_MAPPING_FILE = PREFIX + "gpu-type.mapping-file";
  public static final String DEFAULT_GPU_TYPE_MAPPING_FILE = "";

  /** Prefix of a per-user weight cap, {@code weight.max.user.<user>}; overrides every other cap. */
  public static final String WEIGHT_MAX_USER_PREFIX = PREFIX + "weight.max.user.";

  /** Prefix of a per-queue weight cap, {@code weight.max.queue.<queue>}; overrides weight.max. */
  public static final String WEIGHT_MAX_QUEUE_PREFIX = PREFIX + "weight.max.queue.";

  /** Who may submit to the default queue, as a YARN AccessControlList ("users groups"). */
  public static final String QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS =
      PREFIX + "queue.default.acl-submit-applications";
  public static final String DEFAULT_QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS = "*";

  /** Who administers the default queue (kills and modifies any of its applications). */
  public static final String QUEUE_DEFAULT_ACL_ADMINISTER_QUEUE =
      PREFIX + "queue.default.acl-administer-queue";
  public static final String DEFAULT_QUEUE_DEFAULT_ACL_ADMINISTER_QUEUE = "*";

  /**
   * Share of the cluster's memory and vcores that ApplicationMasters may hold together, in
   * (0, 1], as CapacityScheduler's key of this name; the first AM always starts.
   */
  public static final String QUEUE_DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT =
      PREFIX + "queue.default.maximum-am-resource-percent";
  public static final double DEFAULT_QUEUE_DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT = 0.5;

  // --- queues: every queue Q has the keys queue.Q.*, documented here for "default" ---

  /** The queues, comma-separated; {@code default} is always one of them, listed or not. */
  public static final String QUEUES = PREFIX + "queues";
  public static final String DEFAULT_QUEUES = "default";

  /** Prefix of a queue's settings, {@code queue.<queue>.<setting>}. */
  public static final String QUEUE_PREFIX = PREFIX + "queue.";

  /**
   * Share of the fleet's GPUs the default queue is guaranteed, in [0, 1]; unset: what the other
   * queues leave (1 minus the sum of their guarantees). Other queues default to 0.
   */
  public static final String QUEUE_DEFAULT_GUARANTEED_GPU_SHARE =
      PREFIX + "queue.default.guaranteed-gpu-share";
  public static final String DEFAULT_QUEUE_DEFAULT_GUARANTEED_GPU_SHARE = "";

  /** Most of the fleet's GPUs the queue may hold, in [guaranteed share, 1]. */
  public static final String QUEUE_DEFAULT_MAXIMUM_GPU_SHARE =
      PREFIX + "queue.default.maximum-gpu-share";
  public static final double DEFAULT_QUEUE_DEFAULT_MAXIMUM_GPU_SHARE = 1.0;

  /** Most applications the queue holds, pending and running; more are rejected at submission. */
  public static final String QUEUE_DEFAULT_MAXIMUM_APPLICATIONS =
      PREFIX + "queue.default.maximum-applications";
  public static final int DEFAULT_QUEUE_DEFAULT_MAXIMUM_APPLICATIONS = 10000;

  /** Most running applications per user in the queue; -1: no limit. More wait for an AM. */
  public static final String QUEUE_DEFAULT_USER_LIMIT = PREFIX + "queue.default.user-limit";
  public static final int DEFAULT_QUEUE_DEFAULT_USER_LIMIT = -1;

  /**
   * Which queue an application submitted to {@code default} goes to, in CapacityScheduler's
   * syntax: {@code u:USER:QUEUE}, {@code g:GROUP:QUEUE}, {@code u:%user:%user},
   * {@code u:%user:%primary_group}, {@code u:%user:QUEUE}; comma-separated, first match wins.
   */
  public static final String QUEUE_MAPPINGS = PREFIX + "queue-mappings";
  public static final String DEFAULT_QUEUE_MAPPINGS = "";
}
