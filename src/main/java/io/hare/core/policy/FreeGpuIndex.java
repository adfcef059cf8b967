package io.hare.core.policy;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The free GPUs of each type, kept up to date from the policy's own task events so a dispatch
 * call need not scan every free GPU of a large, idle cluster. Adding and removing cost O(1).
 *
 * <p>It is a cache: the host's offer stays the truth. Callers use it only when the offer has
 * exactly as many GPUs as the index (the host offered every free GPU, as the simulator does) and
 * still check each GPU they pick; otherwise they group the offer itself (a YARN heartbeat offers
 * one node's GPUs).
 *
 * <p>Public because two families use it (hare's dispatcher and hlas); not for hosts.
 */
public final class FreeGpuIndex {

  private final Map<GpuType, List<GpuView>> byType = new HashMap<>();
  private final Map<String, Integer> position = new HashMap<>();
  private boolean initialised;
  private long version;
  private int total;

  public boolean initialised() {
    return initialised;
  }

  /** Types the index has seen, free GPUs or not. */
  public java.util.Set<GpuType> types() {
    return byType.keySet();
  }

  /**
   * Fills the index from the cluster the first time it is needed, and again when the cluster's
   * GPUs changed ({@link ClusterView#gpusVersion}): GPUs join and leave without task events, and
   * an offer of as many GPUs as a stale index holds is not the same GPUs.
   */
  public void ensureInitialised(ClusterView cluster) {
    if (initialised && version == cluster.gpusVersion()) {
      return;
    }
    initialised = true;
    version = cluster.gpusVersion();
    byType.clear();
    position.clear();
    total = 0;
    for (GpuView g : cluster.gpus()) {
      byType.computeIfAbsent(g.type(), t -> new ArrayList<>());
      if (!g.busy()) {
        add(g);
      }
    }
  }

  public void add(GpuView gpu) {
    if (!initialised || position.containsKey(gpu.id())) {
      return;
    }
    List<GpuView> l = byType.computeIfAbsent(gpu.type(), t -> new ArrayList<>());
    position.put(gpu.id(), l.size());
    l.add(gpu);
    total++;
  }

  public void remove(GpuView gpu) {
    Integer at = position.remove(gpu.id());
    if (at == null) {
      return;
    }
    List<GpuView> l = byType.get(gpu.type());
    GpuView last = l.remove(l.size() - 1);
    if (at < l.size()) {
      l.set(at, last);
      position.put(last.id(), at);
    }
    total--;
  }

  public int total() {
    return total;
  }

  /** Free GPUs of a type, in no particular order; do not modify. */
  public List<GpuView> of(GpuType type) {
    return byType.getOrDefault(type, List.of());
  }
}
