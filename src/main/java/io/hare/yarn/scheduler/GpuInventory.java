package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * Every GPU of every node, as {@link YarnGpu}s, with its type and whether a task container holds
 * it. The scheduler keeps it in step with node events; it never talks to YARN itself.
 *
 * <p>Changing a node's type or GPU count never touches a GPU that runs a task: free GPUs are
 * retired and replaced at once (new ids, new type), busy ones when their task ends. So the
 * number of GPUs counted busy on a node always equals its task containers, and a policy never
 * sees a GPU change type under it.
 *
 * <p>Not thread-safe: the scheduler calls it under its lock.
 */
final class GpuInventory {

  private static final class Node {
    final NodeId id;
    final long order; // first registration, for a fixed cluster order
    GpuType type;
    final List<YarnGpu> slots = new ArrayList<>(); // current GPUs by index
    int shrinkPending; // GPUs to drop when they free

    Node(NodeId id, long order) {
      this.id = id;
      this.order = order;
    }
  }

  private final Map<NodeId, Node> nodes = new LinkedHashMap<>();
  private final Map<String, YarnGpu> byId = new HashMap<>();
  private int generation = -1;
  private long nodeOrder;
  private List<YarnGpu> ordered; // current GPUs in cluster order; null when stale
  private long version;
  private long stamp;
  private final Set<YarnGpu> touched = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Sets a node's GPU count and type (adds the node if new). No GPUs: the node is left out. */
  void setNode(NodeId id, int gpus, GpuType type) {
    Node n = nodes.get(id);
    if (n == null) {
      if (gpus <= 0) {
        return;
      }
      n = new Node(id, nodeOrder++);
      n.type = type;
      nodes.put(id, n);
    }
    if (type.equals(n.type) && n.slots.size() == gpus && n.shrinkPending == 0) {
      return;
    }
    generation++; // new GPUs of this change get ids never used before
    if (!type.equals(n.type)) {
      n.type = type;
      for (int i = 0; i < n.slots.size(); i++) {
        YarnGpu g = n.slots.get(i);
        if (!g.running()) {
          replace(n, i);
        }
      }
    }
    resize(n, Math.max(0, gpus));
    changed();
  }

  private void resize(Node n, int gpus) {
    n.shrinkPending = 0;
    while (n.slots.size() < gpus) {
      YarnGpu g = new YarnGpu(n.id, n.slots.size(), n.type, generation);
      touched.add(g);
      n.slots.add(g);
      byId.put(g.id(), g);
    }
    int excess = n.slots.size() - gpus;
    for (int i = n.slots.size() - 1; i >= 0 && excess > 0; i--) {
      YarnGpu g = n.slots.get(i);
      if (!g.running()) {
        drop(n, g);
        excess--;
      }
    }
    n.shrinkPending = excess;
  }

  private void replace(Node n, int i) {
    YarnGpu old = n.slots.get(i);
    old.retire();
    touched.add(old);
    byId.remove(old.id());
    YarnGpu g = new YarnGpu(n.id, i, n.type, generation);
    touched.add(g);
    n.slots.set(i, g);
    byId.put(g.id(), g);
  }

  private void drop(Node n, YarnGpu g) {
    g.retire();
    touched.add(g);
    byId.remove(g.id());
    n.slots.remove(g);
  }

  /** The node left: all its GPUs retire (running tasks are killed by YARN). */
  void removeNode(NodeId id) {
    Node n = nodes.remove(id);
    if (n == null) {
      return;
    }
    for (YarnGpu g : n.slots) {
      g.retire();
      touched.add(g);
      byId.remove(g.id());
    }
    changed();
  }

  GpuType typeOf(NodeId id) {
    Node n = nodes.get(id);
    return n == null ? null : n.type;
  }

  /** A current (not retired) GPU by id, or null. */
  YarnGpu gpu(String id) {
    return byId.get(id);
  }

  void start(YarnGpu g, String jobId) {
    g.start(jobId);
    touched.add(g);
    stamp++;
  }

  /** A task on {@code g} ended: the GPU is free, or retires if its node changed meanwhile. */
  void release(YarnGpu g) {
    g.free();
    touched.add(g);
    stamp++;
    Node n = nodes.get(g.nodeId());
    if (g.retired() || n == null) {
      return;
    }
    if (n.shrinkPending > 0) {
      drop(n, g);
      n.shrinkPending--;
      changed();
    } else if (!g.type().equals(n.type)) {
      generation++;
      replace(n, n.slots.indexOf(g));
      changed();
    }
  }

  /** A GPU of {@code node} free for a task, or null. */
  YarnGpu freeOn(NodeId node) {
    Node n = nodes.get(node);
    if (n != null) {
      for (YarnGpu g : n.slots) {
        if (!g.taken()) {
          return g;
        }
      }
    }
    return null;
  }

  /** Current GPUs in cluster order (nodes by first registration, then index). */
  List<YarnGpu> gpus() {
    if (ordered == null) {
      List<YarnGpu> l = new ArrayList<>();
      nodes.values().stream().sorted(Comparator.comparingLong(n -> n.order))
          .forEach(n -> l.addAll(n.slots));
      ordered = List.copyOf(l);
    }
    return ordered;
  }

  /** Free GPUs, type by type in type order, each in cluster order: the offer to a policy. */
  List<YarnGpu> free() {
    Map<GpuType, List<YarnGpu>> byType = new TreeMap<>();
    for (YarnGpu g : gpus()) {
      if (!g.taken()) {
        byType.computeIfAbsent(g.type(), t -> new ArrayList<>()).add(g);
      }
    }
    List<YarnGpu> out = new ArrayList<>();
    byType.values().forEach(out::addAll);
    return out;
  }

  /** GPU counts of the current GPUs per type, types sorted. */
  Map<GpuType, int[]> counts() {
    Map<GpuType, int[]> m = new TreeMap<>();
    for (YarnGpu g : gpus()) {
      int[] c = m.computeIfAbsent(g.type(), t -> new int[2]);
      c[0]++;
      if (!g.taken()) {
        c[1]++;
      }
    }
    return m;
  }

  /**
   * GPUs whose state changed since the last call (new, started, freed, retired), for the policy
   * host to publish; clears the set.
   */
  List<YarnGpu> drainTouched() {
    List<YarnGpu> out = new ArrayList<>(touched);
    touched.clear();
    return out;
  }

  /** Grows whenever the set of GPUs or their types change. */
  long version() {
    return version;
  }

  /** Grows whenever any GPU starts or ends a task, or the GPUs change. */
  long stamp() {
    return stamp;
  }

  private void changed() {
    ordered = null;
    version++;
    stamp++;
  }
}
