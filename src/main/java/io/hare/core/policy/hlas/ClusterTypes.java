package io.hare.core.policy.hlas;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPU types a cluster has GPUs of, in the cluster's order, as small integer indices, with a
 * version that changes whenever the set or the counts change (nodes joining or leaving), so
 * per-job caches keyed by type index know when to refresh.
 */
final class ClusterTypes {

  private final Map<GpuType, Integer> index = new HashMap<>();
  private List<GpuType> types = List.of();
  private int[] counts = new int[0];
  private int version;

  /** Re-reads the cluster's types and counts; cheap when nothing changed. */
  void update(ClusterView cluster) {
    List<GpuType> now = new ArrayList<>();
    List<Integer> n = new ArrayList<>();
    for (GpuType t : cluster.gpuTypes()) {
      int c = cluster.gpuCount(t);
      if (c > 0) {
        now.add(t);
        n.add(c);
      }
    }
    int[] c = n.stream().mapToInt(Integer::intValue).toArray();
    if (!now.equals(types) || !java.util.Arrays.equals(c, counts)) {
      types = List.copyOf(now);
      counts = c;
      index.clear();
      for (int i = 0; i < types.size(); i++) {
        index.put(types.get(i), i);
      }
      version++;
    }
  }

  List<GpuType> types() {
    return types;
  }

  int size() {
    return types.size();
  }

  int count(int type) {
    return counts[type];
  }

  int version() {
    return version;
  }

  /** Index of a type, or -1; a linear identity scan first, which beats hashing for a handful. */
  int indexOf(GpuType type) {
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i) == type) {
        return i;
      }
    }
    Integer i = index.get(type);
    return i == null ? -1 : i;
  }

  /** The offered GPUs grouped by type index. */
  List<List<GpuView>> group(List<? extends GpuView> gpus) {
    List<List<GpuView>> byType = new ArrayList<>();
    types.forEach(t -> byType.add(new ArrayList<>()));
    for (GpuView g : gpus) {
      int t = indexOf(g.type());
      if (t >= 0) {
        byType.get(t).add(g);
      }
    }
    return byType;
  }
}
