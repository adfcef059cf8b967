package io.hare.core.policy;

import io.hare.core.ConfigException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Settings handed to a policy factory: string values by key (from yarn-site.xml in the RM, from
 * {@code -D} options in the simulator) plus a seed. Typed getters validate and collect every
 * problem instead of failing on the first; {@link #check()} throws them all at once.
 */
public final class PolicyConfig {

  private final Map<String, String> values;
  private final long seed;
  private final List<String> problems = new ArrayList<>();

  public PolicyConfig(Map<String, String> values, long seed) {
    this.values = Map.copyOf(values);
    this.seed = seed;
  }

  public static PolicyConfig defaults() {
    return new PolicyConfig(Map.of(), 0L);
  }

  /** Seed for any randomness (tie breaking); the same seed gives the same decisions. */
  public long seed() {
    return seed;
  }

  public Map<String, String> values() {
    return values;
  }

  public String getString(String key, String def) {
    String v = values.get(key);
    return v == null ? def : v.trim();
  }

  /** A value among {@code allowed} (case-insensitive); records a problem and returns def if not. */
  public String getChoice(String key, String def, String... allowed) {
    String v = getString(key, def).toLowerCase(Locale.ROOT);
    if (!Arrays.asList(allowed).contains(v)) {
      problems.add(key + ": must be one of " + String.join(", ", allowed) + ", got '" + v + "'");
      return def;
    }
    return v;
  }

  public double getDouble(String key, double def, double min, double max) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    try {
      double d = Double.parseDouble(v.trim());
      if (Double.isNaN(d) || d < min || d > max) {
        problems.add(key + ": must be a number in [" + min + ", " + max + "], got '" + v + "'");
        return def;
      }
      return d;
    } catch (NumberFormatException e) {
      problems.add(key + ": must be a number in [" + min + ", " + max + "], got '" + v + "'");
      return def;
    }
  }

  public long getLong(String key, long def, long min, long max) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    try {
      long l = Long.parseLong(v.trim());
      if (l < min || l > max) {
        problems.add(key + ": must be an integer in [" + min + ", " + max + "], got '" + v + "'");
        return def;
      }
      return l;
    } catch (NumberFormatException e) {
      problems.add(key + ": must be an integer in [" + min + ", " + max + "], got '" + v + "'");
      return def;
    }
  }

  public int getInt(String key, int def, int min, int max) {
    return (int) getLong(key, def, min, max);
  }

  public boolean getBoolean(String key, boolean def) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (t.equals("true") || t.equals("false")) {
      return Boolean.parseBoolean(t);
    }
    problems.add(key + ": must be true or false, got '" + v + "'");
    return def;
  }

  /** Records a problem found by a factory's own cross-field checks. */
  public void addProblem(String problem) {
    problems.add(problem);
  }

  public List<String> problems() {
    return List.copyOf(problems);
  }

  /** Throws every problem recorded so far, if any. */
  public void check() throws ConfigException {
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }
}
