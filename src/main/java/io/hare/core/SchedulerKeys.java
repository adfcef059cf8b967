package io.hare.core;

/**
 * Every {@code yarn.scheduler.hare.*} key with its {@code DEFAULT_} twin. The ResourceManager
 * plugin reads them from yarn-site.xml; the simulator reads the same keys (as {@code -D}
 * options), so one policy configuration drives both. Each key is documented in
 * {@code hare-default.xml}; {@code SchedulerKeysTest} keeps the two in sync.
 *
 * <p>A policy family's own keys ({@code hare.*}, {@code hlas.*}, {@code tiresias.*},
 * {@code allox.*}) are beside the family, in the keys classes that
 * {@link io.hare.core.policy.Policies#keyClasses()} lists; this class has the keys of the host
 * and those every policy reads.
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

  /**
   * Directory, as a Hadoop file-system URI ({@code hdfs://ns/hare}, {@code file:///var/lib/hare};
   * without a scheme: on {@code fs.defaultFS}), where the scheduler keeps the task times it
   * measured of running jobs, so that they survive an RM restart or failover; an HA pair shares
   * it. Empty: off, measured times are lost at a restart.
   */
  public static final String TASK_TIMES_STORE_URI = PREFIX + "task-times.store.uri";
  public static final String DEFAULT_TASK_TIMES_STORE_URI = "";

  /** How often the measured task times are saved, when they changed; and once at stop. */
  public static final String TASK_TIMES_STORE_SAVE_INTERVAL_MS =
      PREFIX + "task-times.store.save-interval-ms";
  public static final long DEFAULT_TASK_TIMES_STORE_SAVE_INTERVAL_MS = 10_000L;

  /** Least time between two re-plans of the policy in the ResourceManager (heartbeat path). */
  public static final String REPLAN_INTERVAL_MS = PREFIX + "replan-interval-ms";
  public static final long DEFAULT_REPLAN_INTERVAL_MS = 1000L;

  /**
   * Least scheduler time between two policy passes in the ResourceManager; 0: a pass at every
   * heartbeat that changed something. A heartbeat within the interval of the last pass records
   * what it reports and leaves the placing to the next pass. A pass walks every waiting job, so
   * on a cluster of thousands of nodes, whose heartbeats come a fraction of a millisecond apart,
   * a pass per heartbeat costs the scheduler's thread nodes x waiting jobs per second.
   */
  public static final String PASS_MIN_INTERVAL_MS = PREFIX + "pass.min-interval-ms";
  public static final long DEFAULT_PASS_MIN_INTERVAL_MS = 0L;

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
