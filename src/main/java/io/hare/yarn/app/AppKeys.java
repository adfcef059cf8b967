package io.hare.yarn.app;

/**
 * Every {@code yarn.app.hare.*} key of a job spec with its {@code DEFAULT_} twin. A job spec is a
 * Hadoop configuration file of these keys plus {@code -D} overrides; {@link JobSpecValidator}
 * reads and checks it. Each key is documented in {@code hare-app-default.xml};
 * {@code AppKeysTest} keeps the two in sync. A required key has the empty string as its default.
 */
public final class AppKeys {

  private AppKeys() {}

  public static final String PREFIX = "yarn.app.hare.";

  /** Environment for the task, sync and AM processes: {@code yarn.app.hare.env.NAME=value}. */
  public static final String ENV_PREFIX = PREFIX + "env.";

  // --- job ---

  /** Application name shown by YARN (required). */
  public static final String JOB_NAME = PREFIX + "job.name";
  public static final String DEFAULT_JOB_NAME = "";

  /** Rounds R (required). */
  public static final String JOB_ROUNDS = PREFIX + "job.rounds";
  public static final String DEFAULT_JOB_ROUNDS = "";

  /** Tasks per round k, the job's fixed scale (required). */
  public static final String JOB_TASKS_PER_ROUND = PREFIX + "job.tasks-per-round";
  public static final String DEFAULT_JOB_TASKS_PER_ROUND = "";

  /** Weight in the total weighted completion time; the admin's cap clamps it. */
  public static final String JOB_WEIGHT = PREFIX + "job.weight";
  public static final double DEFAULT_JOB_WEIGHT = 1.0;

  /** Profile (model) name for the scheduler's task times; empty: none. */
  public static final String JOB_MODEL = PREFIX + "job.model";
  public static final String DEFAULT_JOB_MODEL = "";

  /** YARN queue. */
  public static final String JOB_QUEUE = PREFIX + "job.queue";
  public static final String DEFAULT_JOB_QUEUE = "default";

  /**
   * Where the job's work directories live on the default file system; relative paths are under
   * the user's home directory. The job's HARE_WORK_DIR is this plus the application id.
   */
  public static final String JOB_STAGING_DIR = PREFIX + "job.staging-dir";
  public static final String DEFAULT_JOB_STAGING_DIR = ".hare/jobs";

  /**
   * File systems the job uses besides the default one and those of its files and archives
   * (URIs, comma-separated): on a secure cluster the client gets a delegation token for each
   * ({@link JobCredentials}).
   */
  public static final String JOB_FILE_SYSTEMS = PREFIX + "job.file-systems";
  public static final String DEFAULT_JOB_FILE_SYSTEMS = "";

  // --- task ---

  /** Shell command of one task (required); runs under bash in the task container. */
  public static final String TASK_COMMAND = PREFIX + "task.command";
  public static final String DEFAULT_TASK_COMMAND = "";

  public static final String TASK_MEMORY_MB = PREFIX + "task.memory-mb";
  public static final int DEFAULT_TASK_MEMORY_MB = 2048;

  public static final String TASK_VCORES = PREFIX + "task.vcores";
  public static final int DEFAULT_TASK_VCORES = 1;

  /** GPUs per task container; the Hare scheduler places one-GPU containers only. */
  public static final String TASK_GPUS = PREFIX + "task.gpus";
  public static final int DEFAULT_TASK_GPUS = 1;

  /** Attempts of one task (first run included) before the job fails. */
  public static final String TASK_MAX_ATTEMPTS = PREFIX + "task.max-attempts";
  public static final int DEFAULT_TASK_MAX_ATTEMPTS = 3;

  /** Whether a container runs the next waiting task of its round when its task ends. */
  public static final String TASK_REUSE_ENABLED = PREFIX + "task.reuse.enabled";
  public static final boolean DEFAULT_TASK_REUSE_ENABLED = true;

  /**
   * How a container runs tasks: {@code process} (the task command is one task, a new process per
   * task) or {@code resident} (the task command is the job's worker, started once per container,
   * taking task after task over the task channel; needs task reuse). See {@link TaskMode}.
   */
  public static final String TASK_MODE = PREFIX + "task.mode";
  public static final String DEFAULT_TASK_MODE = "process";

  // --- sync ---

  /** Shell command of the round's sync step, run in the AM container; empty: no sync step. */
  public static final String SYNC_COMMAND = PREFIX + "sync.command";
  public static final String DEFAULT_SYNC_COMMAND = "";

  /**
   * How the AM runs the sync command: {@code process} (a new process per round) or
   * {@code resident} (one process for the job, given round after round on its standard input,
   * so a framework's import and model are built once; a command that does not speak that
   * protocol still works, as one process per round). See {@link SyncMode}.
   */
  public static final String SYNC_MODE = PREFIX + "sync.mode";
  public static final String DEFAULT_SYNC_MODE = "process";

  // --- ApplicationMaster ---

  public static final String AM_MEMORY_MB = PREFIX + "am.memory-mb";
  public static final int DEFAULT_AM_MEMORY_MB = 1024;

  /** AM attempts YARN makes; a new attempt resumes after the last checkpointed round. */
  public static final String AM_MAX_ATTEMPTS = PREFIX + "am.max-attempts";
  public static final int DEFAULT_AM_MAX_ATTEMPTS = 2;

  /**
   * How often the AM heartbeats to the ResourceManager: asks and allocated containers travel with
   * these heartbeats, so a round barrier costs up to about two intervals.
   */
  public static final String AM_HEARTBEAT_INTERVAL_MS = PREFIX + "am.heartbeat-interval-ms";
  public static final int DEFAULT_AM_HEARTBEAT_INTERVAL_MS = 1000;

  /**
   * How often the AM heartbeats while a standby container waits for its GPU: the scheduler's
   * promotion reaches the AM only with a heartbeat, so this bounds what a switch to this job's
   * task costs. Only AMs with a waiting standby (a GPU about to free for them) poll this fast.
   */
  public static final String AM_STANDBY_HEARTBEAT_INTERVAL_MS =
      PREFIX + "am.standby-heartbeat-interval-ms";
  public static final int DEFAULT_AM_STANDBY_HEARTBEAT_INTERVAL_MS = 20;

  /**
   * JVM options of the AM, space-separated; the heap comes from am.memory-mb. The default, C1
   * only, starts an AM on about 55 % of the CPU a default JVM takes (docs/performance.md,
   * section 3): its work after the start (heartbeats, a few RPCs per task) does not need C2's
   * code. A value set replaces it.
   */
  public static final String AM_JAVA_OPTS = PREFIX + "am.java-opts";
  public static final String DEFAULT_AM_JAVA_OPTS = "-XX:TieredStopAtLevel=1";

  /** The Hare jar the AM runs from; empty: the jar the client itself was loaded from. */
  public static final String AM_JAR = PREFIX + "am.jar";
  public static final String DEFAULT_AM_JAR = "";

  /**
   * Kerberos principal the AM logs in as, from {@link #AM_KEYTAB}, to get new delegation tokens
   * before the job's expire (a job may then run past their maximum lifetime); empty: none. Needs
   * am.keytab and a Kerberos cluster.
   */
  public static final String AM_PRINCIPAL = PREFIX + "am.principal";
  public static final String DEFAULT_AM_PRINCIPAL = "";

  /**
   * Local path, on the submitting machine, of the keytab of {@link #AM_PRINCIPAL}: copied into
   * the job's work directory (0600) and localized into the AM's container only; deleted when the
   * job ends. Empty: none.
   */
  public static final String AM_KEYTAB = PREFIX + "am.keytab";
  public static final String DEFAULT_AM_KEYTAB = "";

  /** With a keytab: a refresh comes at this share of the time to the tokens' earliest expiry. */
  public static final String AM_TOKEN_REFRESH_RATIO = PREFIX + "am.token-refresh.ratio";
  public static final double DEFAULT_AM_TOKEN_REFRESH_RATIO = 0.75;

  /** With a keytab: the least time between two refreshes, whatever the expiry says. */
  public static final String AM_TOKEN_REFRESH_MIN_INTERVAL_MS =
      PREFIX + "am.token-refresh.min-interval-ms";
  public static final long DEFAULT_AM_TOKEN_REFRESH_MIN_INTERVAL_MS = 60_000;

  /** With a keytab: the wait after a failed refresh, doubled per further failure (16x at most). */
  public static final String AM_TOKEN_REFRESH_RETRY_INTERVAL_MS =
      PREFIX + "am.token-refresh.retry-interval-ms";
  public static final long DEFAULT_AM_TOKEN_REFRESH_RETRY_INTERVAL_MS = 60_000;

  // --- localization ---

  /** Files to localize into the AM and every task container, comma-separated paths. */
  public static final String FILES = PREFIX + "files";
  public static final String DEFAULT_FILES = "";

  /** Archives (zip, tar.gz, jar) to localize unpacked, comma-separated paths. */
  public static final String ARCHIVES = PREFIX + "archives";
  public static final String DEFAULT_ARCHIVES = "";
}
