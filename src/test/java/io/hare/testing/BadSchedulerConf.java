package io.hare.testing;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.gang.GangKeys;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.policy.hlas.HlasKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bad scheduler settings, one per row, each a single key set to a bad value with what the
 * refusal must mention besides the key. Shared by the scheduler's start-up tests and the
 * {@code hare conf-check} tests, so both refuse the same table. All rows together form one
 * configuration whose every key is refused.
 */
public final class BadSchedulerConf {

  /**
   * @param name the case, for test names
   * @param key the bad key
   * @param value its bad value
   * @param mentions what the problem must say besides the key (the value, what is allowed)
   */
  public record Case(String name, String key, String value, List<String> mentions) {
    @Override
    public String toString() {
      return name;
    }
  }

  private BadSchedulerConf() {}

  private static final String P = SchedulerKeys.PREFIX;

  /** The table; files that the rows name are written into {@code dir}. */
  public static List<Case> cases(Path dir) throws IOException {
    Path badProfiles = dir.resolve("bad-profiles.csv");
    Files.writeString(badProfiles, "model,gpu_type,compute_ms,sync_ms\ncnn,v100,-5,0\n");
    Path badMap = dir.resolve("bad-gpu-map.txt");
    Files.writeString(badMap, "gpu-* v100\nthree bad fields\n");
    List<Case> c = new ArrayList<>();
    add(c, "policy-unknown", SchedulerKeys.POLICY, "fastest", "unknown policy 'fastest'",
        "known: hare, hlas");
    add(c, "seed-fraction", SchedulerKeys.SEED, "1.5", "got '1.5'", "integer");
    add(c, "weight-max-zero", SchedulerKeys.WEIGHT_MAX, "0", "got '0'", "[1.0, 1000000.0]");
    add(c, "weight-max-nan", SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "research", "NaN",
        "got 'NaN'", "[1.0, 1000000.0]");
    add(c, "weight-max-infinite", SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "bob", "Infinity",
        "got 'Infinity'", "[1.0, 1000000.0]");
    add(c, "weight-cap-below-one", SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice", "0.5",
        "got '0.5'", "[1.0");
    add(c, "weight-cap-names-nobody", SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX, "4",
        "names no queue");
    add(c, "gpu-attribute-with-dot", SchedulerKeys.GPU_TYPE_ATTRIBUTE, "gpu.model",
        "'gpu.model'", "letters, digits, '-' and '_'");
    add(c, "default-type-not-a-name", SchedulerKeys.GPU_TYPE_DEFAULT, "Tesla V100!",
        "tesla v100!", "[a-z0-9_-]");
    add(c, "isolation-default-not-known", SchedulerKeys.GPU_ISOLATION_DEFAULT, "maybe",
        "got 'maybe'", "true, false or auto");
    add(c, "gpu-reserve-below-auto", SchedulerKeys.NON_GPU_RESERVE_MEMORY_MB, "-2",
        "got '-2'", "integer in [-1");
    add(c, "am-share-above-one", SchedulerKeys.QUEUE_DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT, "1.5",
        "got '1.5'", "[0.01, 1.0]");
    add(c, "profiles-file-missing", SchedulerKeys.PROFILES_FILE, dir + "/no-profiles.csv",
        "no-profiles.csv", "no such file");
    add(c, "profiles-file-bad-row", SchedulerKeys.PROFILES_FILE, badProfiles.toString(),
        "bad-profiles.csv:2", "compute_ms", "> 0");
    add(c, "default-compute-words", SchedulerKeys.PROFILES_DEFAULT_COMPUTE_MS, "soon",
        "got 'soon'", "integer in [1");
    add(c, "prior-weight-negative", SchedulerKeys.PROFILES_PRIOR_WEIGHT, "-1", "got '-1'",
        "[0.0, 1000.0]");
    add(c, "window-zero", SchedulerKeys.PROFILES_WINDOW, "0", "got '0'", "[1, 100000]");
    add(c, "task-times-interval-zero", SchedulerKeys.TASK_TIMES_STORE_SAVE_INTERVAL_MS, "0",
        "got '0'", "integer in [1, 86400000]");
    add(c, "task-times-store-relative", SchedulerKeys.TASK_TIMES_STORE_URI, "var/hare",
        "'var/hare'", "absolute path");
    add(c, "task-times-store-not-a-uri", SchedulerKeys.TASK_TIMES_STORE_URI, "hdfs://a b/hare",
        "'hdfs://a b/hare'", "not a URI");
    add(c, "task-times-store-unknown-scheme", SchedulerKeys.TASK_TIMES_STORE_URI,
        "nofs://x/hare", "'nofs://x/hare'", "no file system");
    add(c, "replan-interval-negative", SchedulerKeys.REPLAN_INTERVAL_MS, "-1", "got '-1'",
        "integer in [0");
    add(c, "standby-not-a-boolean", SchedulerKeys.STANDBY_ENABLED, "yes", "got 'yes'",
        "true or false");
    add(c, "standby-lead-negative", SchedulerKeys.STANDBY_LEAD_MS, "-5", "got '-5'",
        "integer in [0");
    add(c, "liveness-grace-below-two-heartbeats", SchedulerKeys.NODE_LIVENESS_GRACE_MS, "1500",
        "at least twice yarn.resourcemanager.nodemanagers.heartbeat-interval-ms (1000 ms)",
        "got 1500");
    add(c, "liveness-grace-zero", SchedulerKeys.NODE_LIVENESS_GRACE_MS, "0", "got '0'",
        "integer in [1");
    add(c, "replan-interval-beyond-long", HareKeys.REPLAN_MIN_INTERVAL_MS,
        "9223372036854775808", "got '9223372036854775808'", "integer in [0");
    add(c, "mapping-file-bad-line", SchedulerKeys.GPU_TYPE_MAPPING_FILE, badMap.toString(),
        "bad-gpu-map.txt:2", "expected 2 fields 'HOST_OR_GLOB GPU_MODEL'");
    add(c, "submit-acl-three-fields", SchedulerKeys.QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS,
        "alice bob carol", "'alice bob carol'", "'user1,user2 group1,group2'");
    add(c, "hare-ordering-unknown", HareKeys.ORDERING, "random", "got 'random'",
        "one of relaxation, smith");
    add(c, "hare-affinity-above-one", HareKeys.AFFINITY_MIN_SHARE, "1.5", "got '1.5'",
        "[0.0, 1.0]");
    add(c, "hare-affinity-penalty-negative", HareKeys.AFFINITY_PENALTY, "-0.5", "got '-0.5'",
        "[0.0, Infinity]");
    add(c, "hare-lp-intervals-one", HareKeys.LP_INTERVALS, "1", "got '1'",
        "[2, 10000]");
    add(c, "hare-exact-max-tasks-negative", HareKeys.EXACT_MAX_TASKS, "-1", "got '-1'",
        "[0, 1000]");
    add(c, "hare-exact-work-limit-zero", HareKeys.EXACT_WORK_LIMIT, "0", "got '0'",
        "[0.001, 60.0]");
    add(c, "hare-max-wait-negative", HareKeys.MAX_WAIT_MS, "-5", "got '-5'",
        "[0, 31536000000]");
    // keys of policies other than the running one: refused now, not at the restart that
    // switches to them
    add(c, "hlas-aging-negative", HlasKeys.AGING_RATE, "-0.1", "got '-0.1'",
        "[0.0, 1000000.0]");
    add(c, "hlas-flag-not-boolean", HlasKeys.SLOW_TYPE_WAIT_ENABLED, "yes",
        "got 'yes'", "true or false");
    add(c, "tiresias-thresholds-decreasing", GangKeys.TIRESIAS_QUEUE_THRESHOLDS_GPU_S,
        "7200,3250", "7200,3250", "increasing");
    add(c, "allox-alpha-zero", GangKeys.ALLOX_ALPHA, "0", "got '0'", "in (0, 1]");
    add(c, "queues-name-with-dot", SchedulerKeys.QUEUES, "default,a.b", "queue name 'a.b'",
        "no dots");
    add(c, "queue-key-of-unknown-queue", P + "queue.x.user-limit", "2", "queue 'x' is not in",
        SchedulerKeys.QUEUES);
    add(c, "queue-setting-unknown", P + "queue.default.capacity", "0.5",
        "unknown queue setting 'capacity'", "guaranteed-gpu-share");
    add(c, "queue-guarantee-above-one", SchedulerKeys.QUEUE_DEFAULT_GUARANTEED_GPU_SHARE, "1.5",
        "got '1.5'", "[0.0, 1.0]");
    add(c, "queue-maximum-below-guarantee", SchedulerKeys.QUEUE_DEFAULT_MAXIMUM_GPU_SHARE, "0.5",
        "got 0.5", "at least the queue's guaranteed-gpu-share");
    add(c, "queue-user-limit-zero", SchedulerKeys.QUEUE_DEFAULT_USER_LIMIT, "0", "got 0",
        "-1 (no limit) or at least 1");
    add(c, "queue-maximum-applications-zero", SchedulerKeys.QUEUE_DEFAULT_MAXIMUM_APPLICATIONS,
        "0", "got '0'", "[1, 2147483647]");
    add(c, "queue-mapping-bad-rule", SchedulerKeys.QUEUE_MAPPINGS, "x:alice:default",
        "'x:alice:default'", "u:USER:QUEUE or g:GROUP:QUEUE");
    add(c, "unknown-key-misspelt", P + "weight.mx", "4", "unknown key",
        "did you mean " + SchedulerKeys.WEIGHT_MAX + "?");
    add(c, "unknown-key-elsewhere", P + "preemption.enabled", "true", "unknown key",
        "see hare-default.xml");
    return c;
  }

  private static void add(List<Case> c, String name, String key, String value,
      String... mentions) {
    c.add(new Case(name, key, value, List.of(mentions)));
  }

  /** Every row at once, as one configuration (a key in two rows: the later row's value). */
  public static Map<String, String> all(Path dir) throws IOException {
    Map<String, String> m = new LinkedHashMap<>();
    for (Case c : cases(dir)) {
      m.put(c.key(), c.value());
    }
    return m;
  }
}
