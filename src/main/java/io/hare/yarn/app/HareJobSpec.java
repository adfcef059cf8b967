package io.hare.yarn.app;

import io.hare.yarn.JobTags;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import org.apache.hadoop.conf.Configuration;

/**
 * A validated Hare job: what {@code hare submit} sends and what the ApplicationMaster runs. Built
 * only by {@link JobSpecValidator#read}, which checks every field; the meaning of each field is
 * that of its key in {@link AppKeys}.
 *
 * @param model profile name, empty for none
 * @param taskMode how containers run tasks; {@link TaskMode#RESIDENT} only with task reuse
 * @param syncCommand empty for no sync step
 * @param syncMode how the AM runs the sync command
 * @param amJar local path of the Hare jar, empty for the client's own jar
 * @param files paths or URIs to localize as files, in the order given
 * @param archives paths or URIs to localize unpacked
 * @param fileSystems URIs of further file systems the job uses, for its delegation tokens
 * @param env extra environment for task, sync and AM processes, by variable name
 * @param tokenRefresh the AM's principal and keytab and when it refreshes its tokens; principal
 *     empty for none
 */
public record HareJobSpec(String name, int rounds, int tasksPerRound, String taskCommand,
    double weight, String model, String queue, String stagingDir, int taskMemoryMb,
    int taskVcores, int taskGpus, int taskMaxAttempts, boolean taskReuse, TaskMode taskMode,
    String syncCommand, SyncMode syncMode, int amMemoryMb,
    int amMaxAttempts, int amHeartbeatMs, int amStandbyHeartbeatMs, String amJavaOpts, String amJar, List<String> files, List<String> archives,
    List<String> fileSystems, Map<String, String> env, TokenRefreshSpec tokenRefresh) {

  public HareJobSpec {
    if (taskMode == TaskMode.RESIDENT && !taskReuse) {
      throw new IllegalArgumentException("a resident worker takes its tasks over the task"
          + " channel: it needs task reuse");
    }
    files = List.copyOf(files);
    archives = List.copyOf(archives);
    fileSystems = List.copyOf(fileSystems);
    env = Map.copyOf(env);
  }

  public boolean hasSync() {
    return !syncCommand.isEmpty();
  }

  /** The application tags the Hare scheduler reads; the Hare AM speaks the Hare protocol. */
  public JobTags.Info tags() {
    // warm task containers are what lets the AM take standby containers (RoundProtocol)
    return new JobTags.Info(weight, OptionalInt.of(rounds), OptionalInt.of(tasksPerRound),
        model.isEmpty() ? Optional.empty() : Optional.of(model), taskReuse,
        JobTags.PROTOCOL_VERSION);
  }

  /** This spec as a configuration that {@link JobSpecValidator#read} reads back unchanged. */
  public Configuration toConfiguration() {
    Configuration c = new Configuration(false);
    c.set(AppKeys.JOB_NAME, name);
    c.setInt(AppKeys.JOB_ROUNDS, rounds);
    c.setInt(AppKeys.JOB_TASKS_PER_ROUND, tasksPerRound);
    c.set(AppKeys.TASK_COMMAND, taskCommand);
    c.set(AppKeys.JOB_WEIGHT, Double.toString(weight));
    c.set(AppKeys.JOB_MODEL, model);
    c.set(AppKeys.JOB_QUEUE, queue);
    c.set(AppKeys.JOB_STAGING_DIR, stagingDir);
    c.setInt(AppKeys.TASK_MEMORY_MB, taskMemoryMb);
    c.setInt(AppKeys.TASK_VCORES, taskVcores);
    c.setInt(AppKeys.TASK_GPUS, taskGpus);
    c.setInt(AppKeys.TASK_MAX_ATTEMPTS, taskMaxAttempts);
    c.setBoolean(AppKeys.TASK_REUSE_ENABLED, taskReuse);
    c.set(AppKeys.TASK_MODE, taskMode.key());
    c.set(AppKeys.SYNC_COMMAND, syncCommand);
    c.set(AppKeys.SYNC_MODE, syncMode.key());
    c.setInt(AppKeys.AM_MEMORY_MB, amMemoryMb);
    c.setInt(AppKeys.AM_MAX_ATTEMPTS, amMaxAttempts);
    c.setInt(AppKeys.AM_HEARTBEAT_INTERVAL_MS, amHeartbeatMs);
    c.setInt(AppKeys.AM_STANDBY_HEARTBEAT_INTERVAL_MS, amStandbyHeartbeatMs);
    c.set(AppKeys.AM_JAVA_OPTS, amJavaOpts);
    c.set(AppKeys.AM_JAR, amJar);
    c.set(AppKeys.FILES, String.join(",", files));
    c.set(AppKeys.ARCHIVES, String.join(",", archives));
    c.set(AppKeys.JOB_FILE_SYSTEMS, String.join(",", fileSystems));
    env.forEach((k, v) -> c.set(AppKeys.ENV_PREFIX + k, v));
    c.set(AppKeys.AM_PRINCIPAL, tokenRefresh.principal());
    c.set(AppKeys.AM_KEYTAB, tokenRefresh.keytab());
    c.set(AppKeys.AM_TOKEN_REFRESH_RATIO, Double.toString(tokenRefresh.ratio()));
    c.setLong(AppKeys.AM_TOKEN_REFRESH_MIN_INTERVAL_MS, tokenRefresh.minIntervalMs());
    c.setLong(AppKeys.AM_TOKEN_REFRESH_RETRY_INTERVAL_MS, tokenRefresh.retryIntervalMs());
    return c;
  }

  /** A copy with other localized resources (the client swaps local paths for uploaded ones). */
  public HareJobSpec withResources(String jar, List<String> newFiles, List<String> newArchives) {
    return new HareJobSpec(name, rounds, tasksPerRound, taskCommand, weight, model, queue,
        stagingDir, taskMemoryMb, taskVcores, taskGpus, taskMaxAttempts, taskReuse, taskMode, syncCommand,
        syncMode, amMemoryMb, amMaxAttempts, amHeartbeatMs, amStandbyHeartbeatMs, amJavaOpts, jar, newFiles, newArchives, fileSystems, env, tokenRefresh);
  }

  /** A copy with other token refresh settings (the client swaps the keytab's local path). */
  public HareJobSpec withTokenRefresh(TokenRefreshSpec refresh) {
    return new HareJobSpec(name, rounds, tasksPerRound, taskCommand, weight, model, queue,
        stagingDir, taskMemoryMb, taskVcores, taskGpus, taskMaxAttempts, taskReuse, taskMode,
        syncCommand, syncMode, amMemoryMb, amMaxAttempts, amHeartbeatMs, amStandbyHeartbeatMs,
        amJavaOpts, amJar, files, archives, fileSystems, env, refresh);
  }
}
