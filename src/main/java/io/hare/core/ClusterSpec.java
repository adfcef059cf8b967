package io.hare.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPUs of a cluster, grouped by type. Immutable.
 *
 * <p>The textual form {@code v100=40,t4=40,k80=40} lists a count per type; GPUs are then named
 * {@code v100-0, v100-1, ...} and packed onto nodes of {@link #GPUS_PER_NODE} GPUs of one type
 * ({@code v100-n0, ...}), the way GPU servers are usually bought.
 */
public final class ClusterSpec {

  /** GPUs per node when a cluster is built from per-type counts. */
  public static final int GPUS_PER_NODE = 8;

  private final List<Gpu> gpus;
  private final Map<GpuType, Integer> counts;

  public ClusterSpec(List<Gpu> gpus) {
    this.gpus = List.copyOf(gpus);
    Map<GpuType, Integer> c = new LinkedHashMap<>();
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (Gpu g : this.gpus) {
      if (!ids.add(g.id())) {
        throw new IllegalArgumentException("duplicate GPU id " + g.id());
      }
      c.merge(g.type(), 1, Integer::sum);
    }
    this.counts = Collections.unmodifiableMap(c);
  }

  /** A cluster with the given number of GPUs per type, in the order given. */
  public static ClusterSpec ofCounts(Map<GpuType, Integer> perType) {
    List<Gpu> gpus = new ArrayList<>();
    for (Map.Entry<GpuType, Integer> e : perType.entrySet()) {
      String t = e.getKey().name();
      for (int i = 0; i < e.getValue(); i++) {
        gpus.add(new Gpu(t + "-" + i, e.getKey(), t + "-n" + (i / GPUS_PER_NODE)));
      }
    }
    return new ClusterSpec(gpus);
  }

  /**
   * Parses {@code type=count[,type=count...]}.
   *
   * @throws IllegalArgumentException naming the bad entry and what is allowed
   */
  public static ClusterSpec parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("cluster: expected type=count[,type=count...], got nothing");
    }
    Map<GpuType, Integer> perType = new LinkedHashMap<>();
    // limit -1 keeps trailing empty entries, so "v100=2," is refused like ",v100=2"
    for (String part : text.split(",", -1)) {
      String p = part.trim();
      int eq = p.indexOf('=');
      if (eq <= 0 || eq == p.length() - 1) {
        throw new IllegalArgumentException(
            "cluster: entry '" + p + "' must be type=count, e.g. v100=8");
      }
      GpuType type;
      try {
        type = GpuType.of(p.substring(0, eq));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("cluster: entry '" + p + "': " + e.getMessage(), e);
      }
      int n;
      try {
        n = Integer.parseInt(p.substring(eq + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "cluster: entry '" + p + "': count must be an integer >= 0", e);
      }
      if (n < 0) {
        throw new IllegalArgumentException("cluster: entry '" + p + "': count must be >= 0");
      }
      if (perType.put(type, n) != null) {
        throw new IllegalArgumentException("cluster: type " + type + " listed twice");
      }
    }
    return ofCounts(perType);
  }

  public List<Gpu> gpus() {
    return gpus;
  }

  /**
   * Types that have at least one GPU, in first-seen order. A type listed with count 0 is not
   * present: it has no GPUs to offer, so policies never see it.
   */
  public List<GpuType> types() {
    return List.copyOf(counts.keySet());
  }

  public int count(GpuType type) {
    return counts.getOrDefault(type, 0);
  }

  public int size() {
    return gpus.size();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    counts.forEach((t, n) -> sb.append(sb.length() == 0 ? "" : ",").append(t).append('=').append(n));
    return sb.toString();
  }
}
