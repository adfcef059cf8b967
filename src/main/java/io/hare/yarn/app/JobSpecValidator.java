package io.hare.yarn.app;

import io.hare.core.ConfigException;
import io.hare.core.KeyHints;
import io.hare.yarn.JobTags;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads a job spec from a configuration and checks all of it at once: {@link #read} returns the
 * spec or throws one {@link ConfigException} carrying every problem, each of the form
 * {@code KEY: 'VALUE' is not allowed; WHAT IS ALLOWED} (or {@code KEY: required ...}). Unknown
 * {@code yarn.app.hare.*} keys are problems too, with the closest known key as a hint. Local
 * files to localize must exist; URIs with another scheme are checked at submission.
 */
public final class JobSpecValidator {

  /** Every key of {@link AppKeys}, in declaration order. */
  public static final Set<String> KEYS = knownKeys();

  /** Environment variables Hare sets itself; a spec may not override them. */
  public static final Set<String> RESERVED_ENV = Set.of("HARE_JOB_ID", "HARE_ROUND",
      "HARE_TASK_INDEX", "HARE_TASKS_PER_ROUND", "HARE_WORK_DIR", "HARE_GPU_TYPE",
      "HARE_RUNNER_HOST", "HARE_RUNNER_PORT");

  static final int MAX_TASK_ATTEMPTS = 100;
  /** Refresh intervals: under a second would hammer the KDC; over a day outlives HDFS tokens. */
  static final long MIN_REFRESH_MS = 1_000;
  static final long MAX_REFRESH_MS = 86_400_000;
  static final double MIN_REFRESH_RATIO = 0.1;
  static final double MAX_REFRESH_RATIO = 0.95;
  static final int MIN_AM_MEMORY_MB = 256;
  static final int MIN_AM_HEARTBEAT_MS = 10;
  static final int MAX_AM_HEARTBEAT_MS = 60_000;
  private static final String HEARTBEAT_RANGE = "a whole number of milliseconds from "
      + MIN_AM_HEARTBEAT_MS + " to " + MAX_AM_HEARTBEAT_MS;
  private static final Pattern MODEL = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
  private static final Pattern JAVA_OPT = Pattern.compile("-[\\w:+=.,/@%-]*");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** A ${...} that Hadoop's configuration left as it was: nothing defines it. */
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{[^}$]+}");
  private static final List<String> ARCHIVE_TYPES =
      List.of(".zip", ".tar.gz", ".tgz", ".tar", ".jar");

  private final Configuration conf;
  private final List<String> problems = new ArrayList<>();

  private JobSpecValidator(Configuration conf) {
    this.conf = conf;
  }

  /** The spec in {@code conf}, or every problem with it. */
  public static HareJobSpec read(Configuration conf) throws ConfigException {
    return new JobSpecValidator(conf).spec();
  }

  private HareJobSpec spec() throws ConfigException {
    Map<String, String> env = unknownKeysAndEnv();
    String name = required(AppKeys.JOB_NAME);
    int rounds = count(AppKeys.JOB_ROUNDS, JobTags.MAX_ROUNDS);
    int k = count(AppKeys.JOB_TASKS_PER_ROUND, JobTags.MAX_TASKS_PER_ROUND);
    String command = required(AppKeys.TASK_COMMAND);
    double weight = weight();
    String model = text(AppKeys.JOB_MODEL, AppKeys.DEFAULT_JOB_MODEL);
    if (!model.isEmpty() && !MODEL.matcher(model).matches()) {
      bad(AppKeys.JOB_MODEL, model, "1-64 characters a-z, 0-9, '.', '_' or '-', starting with a"
          + " letter or digit (lower case: YARN lower-cases tags)");
    }
    String queue = text(AppKeys.JOB_QUEUE, AppKeys.DEFAULT_JOB_QUEUE);
    if (queue.isEmpty() || queue.chars().anyMatch(Character::isWhitespace)) {
      bad(AppKeys.JOB_QUEUE, queue, "a queue name without spaces");
    }
    String staging = text(AppKeys.JOB_STAGING_DIR, AppKeys.DEFAULT_JOB_STAGING_DIR);
    if (staging.isEmpty()) {
      bad(AppKeys.JOB_STAGING_DIR, staging, "a directory on the default file system");
    }
    int memory = atLeast(AppKeys.TASK_MEMORY_MB, AppKeys.DEFAULT_TASK_MEMORY_MB, 1);
    int vcores = atLeast(AppKeys.TASK_VCORES, AppKeys.DEFAULT_TASK_VCORES, 1);
    int gpus = integer(AppKeys.TASK_GPUS, AppKeys.DEFAULT_TASK_GPUS, "1");
    if (gpus != 1 && gpus != Integer.MIN_VALUE) {
      bad(AppKeys.TASK_GPUS, conf.getTrimmed(AppKeys.TASK_GPUS), "only 1 is supported: the Hare"
          + " scheduler places one-GPU task containers and refuses multi-GPU asks");
    }
    int attempts = atLeast(AppKeys.TASK_MAX_ATTEMPTS, AppKeys.DEFAULT_TASK_MAX_ATTEMPTS, 1);
    if (attempts > MAX_TASK_ATTEMPTS) {
      bad(AppKeys.TASK_MAX_ATTEMPTS, conf.getTrimmed(AppKeys.TASK_MAX_ATTEMPTS),
          "a whole number from 1 to " + MAX_TASK_ATTEMPTS);
    }
    boolean reuse = bool(AppKeys.TASK_REUSE_ENABLED, AppKeys.DEFAULT_TASK_REUSE_ENABLED);
    TaskMode mode = taskMode(reuse);
    String sync = text(AppKeys.SYNC_COMMAND, AppKeys.DEFAULT_SYNC_COMMAND);
    SyncMode syncMode = syncMode(sync);
    int amMemory = atLeast(AppKeys.AM_MEMORY_MB, AppKeys.DEFAULT_AM_MEMORY_MB, MIN_AM_MEMORY_MB);
    int amAttempts = atLeast(AppKeys.AM_MAX_ATTEMPTS, AppKeys.DEFAULT_AM_MAX_ATTEMPTS, 1);
    int heartbeat = integer(AppKeys.AM_HEARTBEAT_INTERVAL_MS,
        AppKeys.DEFAULT_AM_HEARTBEAT_INTERVAL_MS, HEARTBEAT_RANGE);
    if (heartbeat != Integer.MIN_VALUE && (heartbeat < MIN_AM_HEARTBEAT_MS
        || heartbeat > MAX_AM_HEARTBEAT_MS)) {
      bad(AppKeys.AM_HEARTBEAT_INTERVAL_MS, conf.getTrimmed(AppKeys.AM_HEARTBEAT_INTERVAL_MS),
          HEARTBEAT_RANGE);
    }
    int standbyHeartbeat = integer(AppKeys.AM_STANDBY_HEARTBEAT_INTERVAL_MS,
        AppKeys.DEFAULT_AM_STANDBY_HEARTBEAT_INTERVAL_MS, HEARTBEAT_RANGE);
    if (standbyHeartbeat != Integer.MIN_VALUE && (standbyHeartbeat < MIN_AM_HEARTBEAT_MS
        || standbyHeartbeat > MAX_AM_HEARTBEAT_MS)) {
      bad(AppKeys.AM_STANDBY_HEARTBEAT_INTERVAL_MS,
          conf.getTrimmed(AppKeys.AM_STANDBY_HEARTBEAT_INTERVAL_MS), HEARTBEAT_RANGE);
    }
    String javaOpts = text(AppKeys.AM_JAVA_OPTS, AppKeys.DEFAULT_AM_JAVA_OPTS);
    for (String opt : javaOpts.split("\\s+")) {
      if (opt.startsWith("-Xmx") || !opt.isEmpty() && !JAVA_OPT.matcher(opt).matches()) {
        bad(AppKeys.AM_JAVA_OPTS, javaOpts, "JVM options starting with '-' of letters, digits"
            + " and : + = . , / @ % _ - (no quotes or $), without -Xmx (the heap comes from "
            + AppKeys.AM_MEMORY_MB + ")");
        break;
      }
    }
    String jar = text(AppKeys.AM_JAR, AppKeys.DEFAULT_AM_JAR);
    if (!jar.isEmpty() && !Files.isRegularFile(Paths.get(jar))) {
      bad(AppKeys.AM_JAR, jar, "the path of an existing Hare jar, or empty for the client's own");
    }
    Set<String> names = new HashSet<>();
    List<String> files = resources(AppKeys.FILES, false, names);
    List<String> archives = resources(AppKeys.ARCHIVES, true, names);
    List<String> fileSystems = fileSystems();
    TokenRefreshSpec refresh = tokenRefresh();
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return new HareJobSpec(name, rounds, k, command, weight, model, queue, staging, memory,
        vcores, gpus, attempts, reuse, mode, sync, syncMode, amMemory, amAttempts, heartbeat, standbyHeartbeat,
        javaOpts, jar, files, archives, fileSystems, env, refresh);
  }

  /**
   * The AM's principal and keytab, both or neither, the keytab a readable file; the refresh
   * timing. Whether the cluster uses Kerberos and the keytab logs in as the principal is checked
   * at submission ({@code JobCredentials#checkKeytab}), where the cluster's configuration is.
   */
  private TokenRefreshSpec tokenRefresh() {
    String principal = text(AppKeys.AM_PRINCIPAL, AppKeys.DEFAULT_AM_PRINCIPAL);
    String keytab = text(AppKeys.AM_KEYTAB, AppKeys.DEFAULT_AM_KEYTAB);
    if (!principal.isEmpty() && keytab.isEmpty()) {
      problems.add(AppKeys.AM_PRINCIPAL + ": '" + principal + "' needs " + AppKeys.AM_KEYTAB
          + " (the keytab the AM logs in from to refresh its tokens), which is not set");
    } else if (principal.isEmpty() && !keytab.isEmpty()) {
      problems.add(AppKeys.AM_KEYTAB + ": '" + keytab + "' needs " + AppKeys.AM_PRINCIPAL
          + " (the principal the keytab logs in as), which is not set");
    }
    if (!keytab.isEmpty() && !(Files.isRegularFile(Paths.get(keytab))
        && Files.isReadable(Paths.get(keytab)))) {
      bad(AppKeys.AM_KEYTAB, keytab, "the local path of a readable keytab file");
    }
    double ratio = AppKeys.DEFAULT_AM_TOKEN_REFRESH_RATIO;
    String r = conf.getTrimmed(AppKeys.AM_TOKEN_REFRESH_RATIO);
    if (r != null) {
      try {
        ratio = Double.parseDouble(r);
      } catch (NumberFormatException e) {
        ratio = Double.NaN;
      }
      if (!(ratio >= MIN_REFRESH_RATIO && ratio <= MAX_REFRESH_RATIO)) {
        bad(AppKeys.AM_TOKEN_REFRESH_RATIO, r, "a number from " + MIN_REFRESH_RATIO + " to "
            + MAX_REFRESH_RATIO + " (the share of the tokens' time left)");
        ratio = AppKeys.DEFAULT_AM_TOKEN_REFRESH_RATIO;
      }
    }
    long min = millis(AppKeys.AM_TOKEN_REFRESH_MIN_INTERVAL_MS,
        AppKeys.DEFAULT_AM_TOKEN_REFRESH_MIN_INTERVAL_MS);
    long retry = millis(AppKeys.AM_TOKEN_REFRESH_RETRY_INTERVAL_MS,
        AppKeys.DEFAULT_AM_TOKEN_REFRESH_RETRY_INTERVAL_MS);
    return new TokenRefreshSpec(principal, keytab, ratio, min, retry);
  }

  /** A whole number of ms from {@link #MIN_REFRESH_MS} to a day; the default when bad. */
  private long millis(String key, long def) {
    String v = conf.getTrimmed(key);
    if (v == null) {
      return def;
    }
    try {
      long n = Long.parseLong(v);
      if (n >= MIN_REFRESH_MS && n <= MAX_REFRESH_MS) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    bad(key, v, "a whole number of milliseconds from " + MIN_REFRESH_MS + " to "
        + MAX_REFRESH_MS);
    return def;
  }

  private Map<String, String> unknownKeysAndEnv() {
    Map<String, String> env = new TreeMap<>();
    Set<String> keys = new TreeSet<>();
    for (Map.Entry<String, String> e : conf) {
      keys.add(e.getKey());
    }
    for (String key : keys) {
      if (key.startsWith(AppKeys.ENV_PREFIX)) {
        String var = key.substring(AppKeys.ENV_PREFIX.length());
        String value = conf.get(key, "");
        if (!ENV_NAME.matcher(var).matches()) {
          problems.add(key + ": '" + var + "' is not allowed as an environment variable name; "
              + "use letters, digits and '_', not starting with a digit");
        } else if (RESERVED_ENV.contains(var)) {
          problems.add(key + ": " + var + " is set by Hare itself and cannot be overridden");
        } else {
          env.put(var, value);
        }
      } else if (key.startsWith(AppKeys.PREFIX) && !KEYS.contains(key)) {
        String hint = KeyHints.closest(key, KEYS).map(k -> "; did you mean " + k + "?")
            .orElse("; see hare-app-default.xml for the keys");
        problems.add(key + ": unknown key (value '" + conf.get(key, "") + "')" + hint);
      }
    }
    return env;
  }

  private String required(String key) {
    String v = conf.getTrimmed(key);
    if (v == null || v.isEmpty()) {
      problems.add(key + ": required, and " + (v == null ? "not set" : "empty"));
      return "";
    }
    return v;
  }

  /** An optional true or false (any case); the default when missing or bad (recorded). */
  private boolean bool(String key, boolean def) {
    String v = conf.getTrimmed(key);
    if (v == null) {
      return def;
    }
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v);
    }
    bad(key, v, "true or false");
    return def;
  }

  /** The task mode; {@code process} (and a problem) when bad or resident without reuse. */
  private TaskMode taskMode(boolean reuse) {
    String v = text(AppKeys.TASK_MODE, AppKeys.DEFAULT_TASK_MODE);
    Optional<TaskMode> mode = TaskMode.parse(v);
    if (mode.isEmpty()) {
      bad(AppKeys.TASK_MODE, v, "process or resident");
      return TaskMode.PROCESS;
    }
    if (mode.get() == TaskMode.RESIDENT && !reuse) {
      problems.add(AppKeys.TASK_MODE + ": resident needs " + AppKeys.TASK_REUSE_ENABLED
          + "=true (a resident worker takes its tasks over the task channel), got false");
    }
    return mode.get();
  }

  /** The sync mode; {@code process} (and a problem) when bad or resident without a command. */
  private SyncMode syncMode(String command) {
    String v = text(AppKeys.SYNC_MODE, AppKeys.DEFAULT_SYNC_MODE);
    Optional<SyncMode> mode = SyncMode.parse(v);
    if (mode.isEmpty()) {
      bad(AppKeys.SYNC_MODE, v, "process or resident");
      return SyncMode.PROCESS;
    }
    if (mode.get() == SyncMode.RESIDENT && command.isEmpty()) {
      problems.add(AppKeys.SYNC_MODE + ": 'resident' needs a sync step to run ("
          + AppKeys.SYNC_COMMAND + " is empty)");
    }
    return mode.get();
  }

  private String text(String key, String def) {
    String v = conf.getTrimmed(key);
    return v == null ? def : v;
  }

  /** A required whole number from 1 to max; 0 when missing or bad (a problem is recorded). */
  private int count(String key, int max) {
    String v = required(key);
    if (v.isEmpty()) {
      return 0;
    }
    try {
      long n = Long.parseLong(v);
      if (n >= 1 && n <= max) {
        return (int) n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    bad(key, v, "a whole number from 1 to " + max);
    return 0;
  }

  /** An optional whole number; Integer.MIN_VALUE when it is not one (a problem is recorded). */
  private int integer(String key, int def, String allowed) {
    String v = conf.getTrimmed(key);
    if (v == null) {
      return def;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      bad(key, v, allowed);
      return Integer.MIN_VALUE;
    }
  }

  private int atLeast(String key, int def, int min) {
    // the upper end too: "99999999999" fails to parse, and ">= 1" alone would not say why
    String allowed = "a whole number >= " + min + " and <= " + Integer.MAX_VALUE;
    int n = integer(key, def, allowed);
    if (n != Integer.MIN_VALUE && n < min) {
      bad(key, conf.getTrimmed(key), allowed);
    }
    return n;
  }

  private double weight() {
    String v = conf.getTrimmed(AppKeys.JOB_WEIGHT);
    if (v == null) {
      return AppKeys.DEFAULT_JOB_WEIGHT;
    }
    try {
      double w = JobTags.parseDecimal(v); // as the scheduler reads the tag
      if (w > 0 && w <= JobTags.MAX_WEIGHT) {
        return w;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    bad(AppKeys.JOB_WEIGHT, v, "a number > 0 and <= " + (long) JobTags.MAX_WEIGHT);
    return AppKeys.DEFAULT_JOB_WEIGHT;
  }

  /** The comma-separated entries of a localization key; local ones must exist. */
  private List<String> resources(String key, boolean archives, Set<String> names) {
    List<String> out = new ArrayList<>();
    for (String entry : conf.getTrimmedStringCollection(key)) {
      URI uri;
      try {
        uri = new URI(entry);
      } catch (URISyntaxException e) {
        uri = Paths.get(entry).toUri();
      }
      boolean local = uri.getScheme() == null || "file".equals(uri.getScheme());
      String path = local && uri.getScheme() != null ? uri.getPath() : entry;
      if (local && !Files.isRegularFile(Paths.get(path))) {
        Matcher unset = VARIABLE.matcher(path);
        bad(key, entry, "existing files (no such file: " + path + (unset.find() ? "; "
            + unset.group() + " is defined neither in the spec nor as a Java system property"
            : "") + ")");
        continue;
      }
      String fileName = fileName(path);
      if (archives && ARCHIVE_TYPES.stream()
          .noneMatch(t -> fileName.toLowerCase(Locale.ROOT).endsWith(t))) {
        bad(key, entry, "archives ending in " + String.join(", ", ARCHIVE_TYPES));
        continue;
      }
      if (!names.add(fileName)) {
        bad(key, entry, "files with distinct names; " + fileName + " is localized twice");
        continue;
      }
      out.add(entry);
    }
    return out;
  }

  /** The file system URIs of {@link AppKeys#JOB_FILE_SYSTEMS}: each needs a scheme. */
  private List<String> fileSystems() {
    List<String> out = new ArrayList<>();
    for (String entry : conf.getTrimmedStringCollection(AppKeys.JOB_FILE_SYSTEMS)) {
      URI uri;
      try {
        uri = new URI(entry);
      } catch (URISyntaxException e) {
        uri = null;
      }
      if (uri == null || uri.getScheme() == null || uri.getScheme().length() < 2) {
        bad(AppKeys.JOB_FILE_SYSTEMS, entry, "file system URIs with a scheme, such as"
            + " hdfs://data-ns or s3a://bucket");
        continue;
      }
      out.add(entry);
    }
    return out;
  }

  static String fileName(String path) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return p.substring(p.lastIndexOf('/') + 1);
  }

  private void bad(String key, String value, String allowed) {
    problems.add(key + ": '" + value + "' is not allowed; must be " + allowed);
  }

  private static Set<String> knownKeys() {
    Set<String> keys = new LinkedHashSet<>();
    for (Field f : AppKeys.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
          && !f.getName().startsWith("DEFAULT_") && !f.getName().endsWith("PREFIX")) {
        try {
          keys.add((String) f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return Collections.unmodifiableSet(keys);
  }
}
