package io.hare.cli;

import io.hare.sim.SimKeys;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the data files of {@code --workload philly} are found. For each file the first of these
 * that is set wins: the command-line option, the {@code -D} key, the environment variable, the
 * default (relative to the working directory, as in the project's checkout next to
 * {@code ../shared/data}). The command line beats the environment so that a one-off run can
 * override a shell profile.
 */
public final class DataPaths {

  /** Philly trace CSV ({@code timestamp,duration,num_gpus,gpu_time,cluster}). */
  public static final String PHILLY_CSV = SimKeys.PHILLY_CSV;
  public static final String DEFAULT_PHILLY_CSV = SimKeys.DEFAULT_PHILLY_CSV;
  public static final String ENV_PHILLY_CSV = "HARE_PHILLY_CSV";

  /** Gavel's measured throughputs, the source of per-type task times for Philly jobs. */
  public static final String GAVEL_JSON = SimKeys.GAVEL_JSON;
  public static final String DEFAULT_GAVEL_JSON = SimKeys.DEFAULT_GAVEL_JSON;
  public static final String ENV_GAVEL_JSON = "HARE_GAVEL_JSON";

  private DataPaths() {}

  /** The path to use and where it came from, for messages ("--philly-csv", a key, ...). */
  public record Resolved(Path path, String source) {}

  public static Resolved resolve(Path option, String optionName, Map<String, String> settings,
      String key, Map<String, String> env, String envVar, String defaultPath) {
    if (option != null) {
      return new Resolved(option, optionName);
    }
    String v = settings.get(key);
    if (v != null && !v.isBlank()) {
      return new Resolved(Path.of(v.trim()), "-D " + key);
    }
    v = env.get(envVar);
    if (v != null && !v.isBlank()) {
      return new Resolved(Path.of(v.trim()), "$" + envVar);
    }
    return new Resolved(Path.of(defaultPath), "the default (set " + optionName + ", -D " + key
        + " or $" + envVar + ")");
  }
}
