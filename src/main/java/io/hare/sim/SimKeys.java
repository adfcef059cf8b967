package io.hare.sim;

/**
 * Every {@code yarn.hare.sim.*} key with its {@code DEFAULT_} twin: the simulator's workload
 * settings, given to {@code hare simulate} as {@code -D key=value}. Each is documented in
 * {@code hare-sim-default.xml}; {@code SimKeysTest} keeps the two in sync. Why each default is
 * what it is: see the Javadoc of the class that reads it.
 */
public final class SimKeys {

  private SimKeys() {}

  public static final String PREFIX = "yarn.hare.sim.";

  // --- data files of hare simulate (io.hare.cli.DataPaths says which source wins) ---

  /** Philly trace CSV for --workload philly, relative to the working directory. */
  public static final String PHILLY_CSV = PREFIX + "philly-csv";
  public static final String DEFAULT_PHILLY_CSV = "../shared/data/philly-jobs.csv";

  /** Gavel throughput JSON giving Philly jobs their per-type task times. */
  public static final String GAVEL_JSON = PREFIX + "gavel-json";
  public static final String DEFAULT_GAVEL_JSON =
      "../shared/data/gavel-simulation-throughputs.json";

  // --- the lower bound that hare simulate reports (io.hare.core.plan.RelaxationBound) ---

  /** Target relative length of the bound LP's time intervals (smaller is tighter, slower). */
  public static final String BOUND_RESOLUTION = PREFIX + "bound.resolution";
  public static final double DEFAULT_BOUND_RESOLUTION = 0.05;

  /** Cap on the bound LP's variables (jobs x GPU types x intervals). */
  public static final String BOUND_MAX_LP_VARIABLES = PREFIX + "bound.max-lp-variables";
  public static final int DEFAULT_BOUND_MAX_LP_VARIABLES = 120_000;

  /** Above this many jobs the LP is skipped and the bound is the critical path alone. */
  public static final String BOUND_MAX_LP_JOBS = PREFIX + "bound.max-lp-jobs";
  public static final int DEFAULT_BOUND_MAX_LP_JOBS = 10_000;

  /** Time limit of the bound LP in ms (0: none); on timeout the critical path is the bound. */
  public static final String BOUND_TIME_LIMIT_MS = PREFIX + "bound.time-limit-ms";
  public static final long DEFAULT_BOUND_TIME_LIMIT_MS = 0L;

  // --- wrong profiles (io.hare.sim.ProfileError) ---

  /**
   * Log-deviation of the true compute times around the profiles the policies are told: a
   * lognormal factor of mean 1 per job and GPU type, from 0 (none) to 3.
   */
  public static final String PROFILE_NOISE = PREFIX + "profile-noise";
  public static final double DEFAULT_PROFILE_NOISE = 0.0;

  /** Factor of every true compute time over its profile, from 0.01 to 100 (1: none). */
  public static final String PROFILE_BIAS = PREFIX + "profile-bias";
  public static final double DEFAULT_PROFILE_BIAS = 1.0;

  // --- paper workload (io.hare.sim.workload.PaperWorkload) ---

  /** Relative shares of the categories CV, NLP, Speech, Rec/graph (4 numbers &gt;= 0). */
  public static final String PAPER_CATEGORY_MIX = PREFIX + "paper.category-mix";
  public static final String DEFAULT_PAPER_CATEGORY_MIX = "1,1,1,1";

  /** Scales k (tasks per round) a job picks from, uniformly. */
  public static final String PAPER_SCALES = PREFIX + "paper.scales";
  public static final String DEFAULT_PAPER_SCALES = "1,2,4,8";

  /** Weights are uniform integers in [1, this]. */
  public static final String PAPER_MAX_WEIGHT = PREFIX + "paper.max-weight";
  public static final int DEFAULT_PAPER_MAX_WEIGHT = 4;

  /** Shortest isolated job run time (all k tasks on V100s), seconds. */
  public static final String PAPER_DURATION_MIN_S = PREFIX + "paper.duration-min-s";
  public static final double DEFAULT_PAPER_DURATION_MIN_S = 60;

  /** Longest isolated job run time, seconds. */
  public static final String PAPER_DURATION_MAX_S = PREFIX + "paper.duration-max-s";
  public static final double DEFAULT_PAPER_DURATION_MAX_S = 3600;

  /** Shape alpha of the bounded Pareto distribution of run times (smaller = heavier tail). */
  public static final String PAPER_DURATION_SHAPE = PREFIX + "paper.duration-shape";
  public static final double DEFAULT_PAPER_DURATION_SHAPE = 1.0;

  /** Sync time of a task as a share of its V100 compute time. */
  public static final String PAPER_SYNC_SHARE = PREFIX + "paper.sync-share";
  public static final double DEFAULT_PAPER_SYNC_SHARE = 0.34;

  /** Most rounds a job gets; longer jobs get longer tasks instead. */
  public static final String PAPER_MAX_ROUNDS = PREFIX + "paper.max-rounds";
  public static final int DEFAULT_PAPER_MAX_ROUNDS = 200;

  /** Work offered per unit of cluster capacity; sets the Poisson arrival rate. */
  public static final String PAPER_OFFERED_LOAD = PREFIX + "paper.offered-load";
  public static final double DEFAULT_PAPER_OFFERED_LOAD = 2.0;

  /** Fixed Poisson arrival rate in jobs per hour; 0 derives it from the offered load. */
  public static final String PAPER_ARRIVAL_RATE_PER_HOUR = PREFIX + "paper.arrival-rate-per-hour";
  public static final double DEFAULT_PAPER_ARRIVAL_RATE_PER_HOUR = 0;

  // --- Philly trace (io.hare.sim.workload.PhillyWorkload) ---

  /** GPU type on which a job's isolated run takes its trace duration (k80, p100 or v100). */
  public static final String PHILLY_REFERENCE_TYPE = PREFIX + "philly.reference-type";
  public static final String DEFAULT_PHILLY_REFERENCE_TYPE = "k80";

  /** Most rounds a job gets; longer jobs get longer tasks instead. */
  public static final String PHILLY_MAX_ROUNDS = PREFIX + "philly.max-rounds";
  public static final int DEFAULT_PHILLY_MAX_ROUNDS = 200;

  /** Weights are uniform integers in [1, this]; 1 makes the objective the plain total JCT. */
  public static final String PHILLY_MAX_WEIGHT = PREFIX + "philly.max-weight";
  public static final int DEFAULT_PHILLY_MAX_WEIGHT = 1;

  /** What to do with a job wider than the GPUs it can run on: clamp or refuse. */
  public static final String PHILLY_TOO_WIDE = PREFIX + "philly.too-wide";
  public static final String DEFAULT_PHILLY_TOO_WIDE = "clamp";

  // --- queues (io.hare.sim.workload.QueueAssignment) ---

  /**
   * Queues of a generated workload's jobs: none (all in default) or round-robin over the listed
   * queues other than default, in arrival order.
   */
  public static final String QUEUE_ASSIGNMENT = PREFIX + "queue-assignment";
  public static final String DEFAULT_QUEUE_ASSIGNMENT = "none";
}
