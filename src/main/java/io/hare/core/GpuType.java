package io.hare.core;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A GPU model as the cluster names it (v100, t4, k80, a100, ...). The set of types is open:
 * it comes from configuration, node attributes or a workload, never from an enum.
 *
 * <p>Names are case-insensitive and normalised to lower case, so {@code V100} from a node
 * attribute and {@code v100} from a profile file are the same type. Allowed characters are those
 * YARN allows in node-attribute values that we care about: letters, digits, '-' and '_'.
 */
public record GpuType(String name) implements Comparable<GpuType> {

  private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  public GpuType {
    if (name == null) {
      throw new IllegalArgumentException("GPU type name must not be null");
    }
    name = name.trim().toLowerCase(Locale.ROOT);
    if (!VALID.matcher(name).matches()) {
      throw new IllegalArgumentException("GPU type name must be 1-64 of [a-z0-9_-] starting with a "
          + "letter or digit, got '" + name + "'");
    }
  }

  public static GpuType of(String name) {
    return new GpuType(name);
  }

  @Override
  public int compareTo(GpuType o) {
    return name.compareTo(o.name);
  }

  @Override
  public String toString() {
    return name;
  }
}
