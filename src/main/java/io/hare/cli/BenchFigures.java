package io.hare.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/** How the benchmark commands check their ranges and print their figures. */
final class BenchFigures {

  private BenchFigures() {}

  /** Milliseconds without decimals for a table, "-" for none (NaN). */
  static String ms(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f ms", v);
  }

  /** {@code key}: {@code v}, or null for none (NaN), in a JSON object. */
  static void put(ObjectNode n, String key, double v) {
    if (Double.isNaN(v)) {
      n.putNull(key);
    } else {
      n.put(key, v);
    }
  }

  /** Adds a problem naming {@code option} unless {@code min <= v <= max}. */
  static void check(List<String> problems, String option, int v, int min, int max) {
    if (v < min || v > max) {
      problems.add(option + ": must be from " + min + " to " + max + ", got " + v);
    }
  }
}
