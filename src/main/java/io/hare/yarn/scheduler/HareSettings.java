package io.hare.yarn.scheduler;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.KnownKeys;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileCsv;
import io.hare.core.profile.ProfileTable;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The scheduler's configuration, read and validated once from the RM's configuration. Every
 * problem is collected, each naming the key, the bad value and what is allowed, and thrown at
 * once as a {@link ConfigException}, so the RM refuses to start (or a refresh is refused) with a
 * list an admin fixes in one pass. The policy's own keys are validated by the policy factory
 * through the same {@link PolicyConfig}, and so are the keys set for other built-in policies
 * ({@link Policies#problemsOfOthers}).
 *
 * @param policyName the policy's configured name
 * @param policyConfig every {@code yarn.scheduler.hare.*} value, for the policy factory
 * @param gpuTypeAttribute attribute name of the GPU model
 * @param defaultGpuType type of GPU nodes without the attribute
 * @param isolatedByDefault whether YARN isolates the GPUs of a node that does not say
 * @param weightMax cap on declared weights
 * @param profiles task times by (lower-case model, type); empty when no file is set
 * @param defaultComputeMs compute time of a task of an unprofiled job
 * @param priorWeight samples the prior counts for in the online estimate
 * @param window samples after which the estimate becomes a moving average
 * @param replanIntervalMs least time between two re-plans
 * @param standbyEnabled whether standby containers are pre-launched
 *     ({@link io.hare.yarn.scheduler.standby.WarmStandbys})
 * @param standbyLeadMs how long before a task's expected end its GPU's standby may start
 * @param admin GPU-model mapping file, per-user/per-queue weight caps, the queues
 * @param nodeLivenessGraceMs how long a node may be silent before it gets no new containers
 *     ({@link NodeLiveness})
 * @param reserveMemoryMb memory a GPU node keeps per free GPU from non-GPU work, -1 for auto
 *     ({@link GpuReserve})
 * @param reserveVcores as {@code reserveMemoryMb}, for vcores
 * @param passMinIntervalMs least time between two policy passes
 * @param taskTimesStoreUri directory where measured task times are kept across restarts; empty:
 *     off ({@link io.hare.yarn.scheduler.times.TaskTimeStore})
 * @param taskTimesSaveIntervalMs how often they are saved
 */
public record HareSettings(String policyName, PolicyConfig policyConfig, String gpuTypeAttribute,
    GpuType defaultGpuType, boolean isolatedByDefault, double weightMax, ProfileTable profiles,
    long defaultComputeMs,
    double priorWeight, int window, long replanIntervalMs, boolean standbyEnabled,
    long standbyLeadMs, AdminSettings admin, long nodeLivenessGraceMs, long reserveMemoryMb,
    long reserveVcores, long passMinIntervalMs, String taskTimesStoreUri,
    long taskTimesSaveIntervalMs) {

  /** YARN's rule for node-attribute names. */
  private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[0-9a-zA-Z_-]+");

  /**
   * Settings together with the policy that {@link #readWithPolicy} built to validate its keys:
   * the policy to run, so that starting the scheduler builds it once, not once to validate and
   * again to run. A policy holds state, so it is handed over beside the settings, not kept in
   * them (the settings outlive it: a refresh replaces them, never the policy).
   */
  public record WithPolicy(HareSettings settings, SchedulingPolicy policy) {}

  /**
   * Reads and validates the settings, building the policy once to validate its keys (and
   * dropping it: a refresh only validates).
   *
   * @throws ConfigException listing every bad key and value
   */
  public static HareSettings read(Configuration conf) throws ConfigException {
    return readWithPolicy(conf).settings();
  }

  /**
   * As {@link #read}, and hands over the policy built to validate the keys, fresh, for the
   * scheduler to run.
   *
   * @throws ConfigException listing every bad key and value
   */
  public static WithPolicy readWithPolicy(Configuration conf) throws ConfigException {
    List<String> problems = new ArrayList<>();
    Map<String, String> values = new HashMap<>();
    conf.getPropsWithPrefix(SchedulerKeys.PREFIX)
        .forEach((k, v) -> values.put(SchedulerKeys.PREFIX + k, v));
    PolicyConfig t = new PolicyConfig(values, 0); // typed getters collect problems
    problems.addAll(new KnownKeys(Policies.keyClasses(), SchedulerKeys.PREFIX)
        .unknown(values.keySet()));

    long seed = t.getLong(SchedulerKeys.SEED, SchedulerKeys.DEFAULT_SEED, Long.MIN_VALUE,
        Long.MAX_VALUE);
    String attribute = t.getString(SchedulerKeys.GPU_TYPE_ATTRIBUTE,
        SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE);
    if (!ATTRIBUTE_NAME.matcher(attribute).matches()) {
      problems.add(SchedulerKeys.GPU_TYPE_ATTRIBUTE + ": must be a node-attribute name of"
          + " letters, digits, '-' and '_', got '" + attribute + "'");
    }
    String typeName = t.getString(SchedulerKeys.GPU_TYPE_DEFAULT,
        SchedulerKeys.DEFAULT_GPU_TYPE_DEFAULT);
    GpuType defaultType = GpuType.of(SchedulerKeys.DEFAULT_GPU_TYPE_DEFAULT);
    try {
      defaultType = GpuType.of(typeName);
    } catch (IllegalArgumentException e) {
      problems.add(SchedulerKeys.GPU_TYPE_DEFAULT + ": " + e.getMessage());
    }
    boolean isolated = isolatedByDefault(conf, t.getString(SchedulerKeys.GPU_ISOLATION_DEFAULT,
        SchedulerKeys.DEFAULT_GPU_ISOLATION_DEFAULT), problems);
    double weightMax = t.getDouble(SchedulerKeys.WEIGHT_MAX, SchedulerKeys.DEFAULT_WEIGHT_MAX,
        1, 1e6);
    long defaultCompute = t.getLong(SchedulerKeys.PROFILES_DEFAULT_COMPUTE_MS,
        SchedulerKeys.DEFAULT_PROFILES_DEFAULT_COMPUTE_MS, 1, 365L * 24 * 3600 * 1000);
    double priorWeight = t.getDouble(SchedulerKeys.PROFILES_PRIOR_WEIGHT,
        SchedulerKeys.DEFAULT_PROFILES_PRIOR_WEIGHT, 0, 1000);
    int window = t.getInt(SchedulerKeys.PROFILES_WINDOW, SchedulerKeys.DEFAULT_PROFILES_WINDOW, 1,
        100_000);
    long replan = t.getLong(SchedulerKeys.REPLAN_INTERVAL_MS,
        SchedulerKeys.DEFAULT_REPLAN_INTERVAL_MS, 0, Long.MAX_VALUE);
    long passInterval = t.getLong(SchedulerKeys.PASS_MIN_INTERVAL_MS,
        SchedulerKeys.DEFAULT_PASS_MIN_INTERVAL_MS, 0, 1000);
    boolean standby = t.getBoolean(SchedulerKeys.STANDBY_ENABLED,
        SchedulerKeys.DEFAULT_STANDBY_ENABLED);
    long lead = t.getLong(SchedulerKeys.STANDBY_LEAD_MS, SchedulerKeys.DEFAULT_STANDBY_LEAD_MS, 0,
        24L * 3600 * 1000);
    long grace = livenessGrace(conf, t, problems);
    long reserveMb = t.getLong(SchedulerKeys.NON_GPU_RESERVE_MEMORY_MB,
        SchedulerKeys.DEFAULT_NON_GPU_RESERVE_MEMORY_MB, -1, 1L << 40);
    long reserveVcores = t.getLong(SchedulerKeys.NON_GPU_RESERVE_VCORES,
        SchedulerKeys.DEFAULT_NON_GPU_RESERVE_VCORES, -1, 1L << 20);
    String timesStore = taskTimesStore(conf, t.getString(SchedulerKeys.TASK_TIMES_STORE_URI,
        SchedulerKeys.DEFAULT_TASK_TIMES_STORE_URI), problems);
    long saveInterval = t.getLong(SchedulerKeys.TASK_TIMES_STORE_SAVE_INTERVAL_MS,
        SchedulerKeys.DEFAULT_TASK_TIMES_STORE_SAVE_INTERVAL_MS, 1, 24L * 3600 * 1000);
    ProfileTable profiles = profiles(t.getString(SchedulerKeys.PROFILES_FILE,
        SchedulerKeys.DEFAULT_PROFILES_FILE), problems);
    AdminSettings admin = AdminSettings.read(weightMax, t); // sched-admin
    problems.addAll(t.problems());

    String policyName = t.getString(SchedulerKeys.POLICY, SchedulerKeys.DEFAULT_POLICY);
    PolicyConfig pc = new PolicyConfig(values, seed);
    SchedulingPolicy policy = null;
    try {
      policy = Policies.create(policyName, pc);
    } catch (ConfigException e) {
      for (String p : e.problems()) {
        problems.add(p.startsWith("policy:") ? SchedulerKeys.POLICY + p.substring(6) : p);
      }
    } catch (RuntimeException e) {
      problems.add(SchedulerKeys.POLICY + ": policy '" + policyName + "' failed to start: " + e);
    }
    problems.addAll(Policies.problemsOfOthers(policyName, values, seed));
    if (policy != null && admin.queues().several()) {
      policy.queuesUnsupported().ifPresent(why -> problems.add(SchedulerKeys.QUEUES + ": " + why));
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return new WithPolicy(new HareSettings(policyName, new PolicyConfig(values, seed), attribute,
        defaultType, isolated, weightMax, profiles, defaultCompute, priorWeight, window, replan,
        standby, lead, admin, grace, reserveMb, reserveVcores, passInterval, timesStore,
        saveInterval), policy);
  }

  /** {@link SchedulerKeys#GPU_ISOLATION_DEFAULT} read: {@code auto} from the RM's own conf. */
  private static boolean isolatedByDefault(Configuration conf, String value,
      List<String> problems) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("auto")) {
      return GpuDevices.isolatedBy(conf);
    }
    Boolean b = GpuDevices.isolation(v);
    if (b == null) {
      problems.add(SchedulerKeys.GPU_ISOLATION_DEFAULT + ": must be true, false or auto, got '"
          + value + "'");
      return false;
    }
    return b;
  }

  /**
   * {@link SchedulerKeys#TASK_TIMES_STORE_URI} read: empty (off), or a URI of an absolute path on
   * a file system this RM has a client for. Nothing is contacted: a file system that is down at
   * start costs the measured times, never the RM's start.
   */
  private static String taskTimesStore(Configuration conf, String value, List<String> problems) {
    String v = value.strip();
    if (v.isEmpty()) {
      return v;
    }
    try {
      URI uri = new URI(v);
      if (uri.getPath() == null || !uri.getPath().startsWith("/")) {
        problems.add(SchedulerKeys.TASK_TIMES_STORE_URI + ": must be a directory URI with an"
            + " absolute path (hdfs://NAMESERVICE/DIR, file:///DIR or /DIR), got '" + value + "'");
      } else if (uri.getScheme() != null) {
        FileSystem.getFileSystemClass(uri.getScheme(), conf);
      }
    } catch (URISyntaxException e) {
      problems.add(SchedulerKeys.TASK_TIMES_STORE_URI + ": not a URI (" + e.getMessage()
          + "), got '" + value + "'");
    } catch (IOException e) {
      problems.add(SchedulerKeys.TASK_TIMES_STORE_URI + ": no file system for the scheme of '"
          + value + "' (" + e.getMessage() + ")");
    }
    return v;
  }

  /**
   * The node liveness grace: a node is silent only after missing more than one heartbeat of the
   * interval the RM gives its NodeManagers, so a grace set is at least twice that; unset, it is
   * the default or three intervals, whichever is longer (a cluster with slow heartbeats must not
   * fail to start on a default).
   */
  private static long livenessGrace(Configuration conf, PolicyConfig t, List<String> problems) {
    long heartbeat = conf.getLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS,
        YarnConfiguration.DEFAULT_RM_NM_HEARTBEAT_INTERVAL_MS);
    if (conf.get(SchedulerKeys.NODE_LIVENESS_GRACE_MS) == null) {
      return Math.max(SchedulerKeys.DEFAULT_NODE_LIVENESS_GRACE_MS, 3 * heartbeat);
    }
    long grace = t.getLong(SchedulerKeys.NODE_LIVENESS_GRACE_MS,
        SchedulerKeys.DEFAULT_NODE_LIVENESS_GRACE_MS, 1, 24L * 3600 * 1000);
    if (grace < 2 * heartbeat) {
      problems.add(SchedulerKeys.NODE_LIVENESS_GRACE_MS + ": must be at least twice "
          + YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS + " (" + heartbeat + " ms), so that a"
          + " node is not taken out between two heartbeats; got " + grace);
    }
    return grace;
  }

  /**
   * Another fresh policy of these settings (already validated by {@link #read}), for a run
   * beside the scheduler's own (a demo's prediction, a replay); the scheduler runs the one
   * {@link #readWithPolicy} built.
   */
  public SchedulingPolicy newPolicy() {
    try {
      return Policies.create(policyName, new PolicyConfig(policyConfig.values(),
          policyConfig.seed()));
    } catch (ConfigException e) {
      throw new IllegalStateException("validated policy settings failed: " + e.getMessage(), e);
    }
  }

  private static ProfileTable profiles(String file, List<String> problems) {
    if (file.isEmpty()) {
      return ProfileTable.builder().build();
    }
    try {
      ProfileTable read = ProfileCsv.read(Path.of(file));
      // YARN lower-cases application tags, so the hare.model tag arrives in lower case
      ProfileTable.Builder b = ProfileTable.builder();
      Map<String, String> seen = new HashMap<>();
      for (String model : read.models()) {
        String lower = model.toLowerCase(Locale.ROOT);
        if (!JobTags.isModelName(lower)) {
          problems.add(SchedulerKeys.PROFILES_FILE + ": " + file + ": model '" + model
              + "' can never be named by a " + JobTags.MODEL + " tag; a model name is "
              + JobTags.MODEL_NAME_RULE + " (upper case is lower-cased)");
          continue;
        }
        String other = seen.put(lower, model);
        if (other != null) {
          problems.add(SchedulerKeys.PROFILES_FILE + ": " + file + ": models '" + other
              + "' and '" + model + "' differ only in case; application tags are lower-cased");
        }
        read.forModel(model).forEach((type, times) -> b.put(lower, type, times));
      }
      return b.build();
    } catch (BadInputException e) {
      for (String problem : e.problems()) { // one a bad field
        problems.add(SchedulerKeys.PROFILES_FILE + ": " + problem);
      }
    } catch (IOException | RuntimeException e) {
      problems.add(SchedulerKeys.PROFILES_FILE + ": " + file + ": cannot read: " + e);
    }
    return ProfileTable.builder().build();
  }
}
