package io.hare.yarn.scheduler.times;

import io.hare.core.GpuType;
import io.hare.core.profile.OnlineEstimator.Measured;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The saved task times as text: a version line, then one tab-separated line per (job, GPU type)
 * the scheduler measured, in the order the job's estimator lists them (its restore needs that
 * order to answer exactly as before):
 *
 * <pre>
 * hare-task-times 1
 * # job  model  gpu_type  compute_ms  sync_ms  samples
 * application_1700000000000_0001  resnet50  v100  2600.0  20.0  5.0
 * </pre>
 *
 * <p>Numbers are Java's shortest exact decimal form, so they read back to the same doubles. The
 * file is another process's output and may be damaged or edited: parsing refuses line by line
 * what is malformed, not a number, NaN, infinite, negative or beyond a year of milliseconds, a
 * repeated (job, type), or a model other than the job's first line's, and keeps the rest; a
 * first line other than the version refuses the whole text.
 */
public final class TaskTimeLines {

  /** The first line of version 1. */
  public static final String HEADER = "hare-task-times 1";

  private static final String COLUMNS = "# job\tmodel\tgpu_type\tcompute_ms\tsync_ms\tsamples";
  private static final Pattern JOB = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
  /** Printable ASCII without spaces: what tags allow, and the scheduler's "(none)". */
  private static final Pattern MODEL = Pattern.compile("[\\x21-\\x7e]{1,128}");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?(E-?[0-9]+)?");
  /** A year in ms: the longest task time the scheduler's own keys allow. */
  static final double MAX_MS = 365.0 * 24 * 3600 * 1000;
  /** Above the largest window the scheduler allows (profiles.window, 100000). */
  static final double MAX_SAMPLES = 1e6;

  private TaskTimeLines() {}

  /**
   * What a text held: the jobs' measured state, in file order, and a problem per refused line
   * ({@code line N: why}).
   */
  public record Parsed(Map<String, List<Measured>> jobs, List<String> problems) {}

  /** The text of {@code jobs}; an entry whose job or model the parser would refuse is left out. */
  public static String write(Map<String, List<Measured>> jobs) {
    StringBuilder b = new StringBuilder(HEADER).append('\n').append(COLUMNS).append('\n');
    jobs.forEach((job, measured) -> {
      if (!JOB.matcher(job).matches()) {
        return;
      }
      for (Measured m : measured) {
        if (MODEL.matcher(m.model()).matches() && valid(m)) {
          b.append(job).append('\t').append(m.model()).append('\t').append(m.type().name())
              .append('\t').append(m.computeMs()).append('\t').append(m.syncMs()).append('\t')
              .append(m.n()).append('\n');
        }
      }
    });
    return b.toString();
  }

  private static boolean valid(Measured m) {
    return m.computeMs() <= MAX_MS && m.syncMs() <= MAX_MS && m.n() <= MAX_SAMPLES;
  }

  /** Reads a text; never throws on its content. */
  public static Parsed parse(String text) {
    Map<String, List<Measured>> jobs = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    if (lines.length == 0 || !lines[0].strip().equals(HEADER)) {
      problems.add("line 1: expected '" + HEADER + "', got '" + shorten(lines[0]) + "'");
      return new Parsed(Map.of(), problems);
    }
    Map<String, String> modelOf = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      String why = problem(f, modelOf, seen);
      if (why != null) {
        problems.add("line " + (i + 1) + ": " + why);
        continue;
      }
      Measured m = new Measured(f[1], GpuType.of(f[2]), Double.parseDouble(f[3]),
          Double.parseDouble(f[4]), Double.parseDouble(f[5]));
      modelOf.putIfAbsent(f[0], f[1]);
      seen.add(f[0] + '\t' + m.type().name());
      jobs.computeIfAbsent(f[0], k -> new ArrayList<>()).add(m);
    }
    return new Parsed(jobs, problems);
  }

  /** Why a line's fields are refused; null if they are fine. */
  private static String problem(String[] f, Map<String, String> modelOf, Set<String> seen) {
    if (f.length != 6) {
      return "expected 6 tab-separated fields, got " + f.length;
    }
    if (!JOB.matcher(f[0]).matches()) {
      return "job id '" + shorten(f[0]) + "' is not an application id";
    }
    if (!MODEL.matcher(f[1]).matches()) {
      return "model '" + shorten(f[1]) + "' is not a model name";
    }
    String model = modelOf.get(f[0]);
    if (model != null && !model.equals(f[1])) {
      return "job " + f[0] + " has model '" + model + "' on an earlier line, here '"
          + shorten(f[1]) + "'";
    }
    GpuType type;
    try {
      type = GpuType.of(f[2]);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    if (seen.contains(f[0] + '\t' + type.name())) {
      return "job " + f[0] + " on " + type + " is on an earlier line";
    }
    String bad = number("compute_ms", f[3], false, MAX_MS);
    if (bad == null) {
      bad = number("sync_ms", f[4], true, MAX_MS);
    }
    if (bad == null) {
      bad = number("samples", f[5], false, MAX_SAMPLES);
    }
    return bad;
  }

  private static String number(String field, String value, boolean zeroOk, double max) {
    if (!NUMBER.matcher(value).matches()) {
      return field + ": not a decimal number: '" + shorten(value) + "'";
    }
    double v = Double.parseDouble(value);
    if (zeroOk ? !(v >= 0) : !(v > 0)) {
      return field + ": must be " + (zeroOk ? ">= 0" : "> 0") + ", got " + value;
    }
    if (v > max) {
      return field + ": must be at most " + max + ", got " + value;
    }
    return null;
  }

  private static String shorten(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
