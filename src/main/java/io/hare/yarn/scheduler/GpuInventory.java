package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.Collections;
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
 * <p>A GPU's index is its device index on the node ({@link io.hare.yarn.GpuDevices}): the
 * current GPUs of a node have distinct indexes, a new one takes the lowest index no current GPU
 * has, and a replaced one keeps its index, so two running containers never share a device.
 *
 * <p>The free GPUs of each type and the GPU counts per type are kept up to date as GPUs start,
 * free, join and leave, so a scheduling pass and the metrics cost what is free and the number of
 * types, not the size of the cluster (a 1,000-node cluster heartbeats a thousand times a
 * second).
 *
 * <p>Not thread-safe: the scheduler calls it under its lock.
 */
final class GpuInventory {

  /** The offer's order: type, then cluster order (that of {@link #gpus()}); a total order. */
  private static final Comparator<YarnGpu> OFFER_ORDER = Comparator.comparing(YarnGpu::type)
      .thenComparingLong(YarnGpu::position);

  private static final class Node {
    final NodeId id;
    final long order; // first registration, for a fixed cluster order
    GpuType type;
    final List<YarnGpu> slots = new ArrayList<>(); // current GPUs by index
    int shrinkPending; // GPUs to drop when they free
    int appended; // GPUs ever appended to slots: their order within the node
    boolean isolated; // YARN isolates the node's GPUs per container (GpuDevices)

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
  /**
   * GPUs changed since the last drain, each once ({@link YarnGpu#touched}): a list, since a
   * hash set's clear costs its capacity, which a cluster-wide change once made large.
   */
  private List<YarnGpu> touched = new ArrayList<>();
  /** Current GPUs not taken, in offer order. */
  private final List<YarnGpu> free = new ArrayList<>();
  private final List<YarnGpu> freeView = Collections.unmodifiableList(free);
  /** Free GPUs per type, for every type in {@link #totals}. */
  private final Map<GpuType, Integer> freeCounts = new TreeMap<>();
  /** Current GPUs per type; a type without GPUs is absent. */
  private final Map<GpuType, Integer> totals = new TreeMap<>();

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
      YarnGpu g = new YarnGpu(n.id, lowestFreeIndex(n), n.type, generation,
          position(n, n.appended++));
      touch(g);
      n.slots.add(g);
      byId.put(g.id(), g);
      joined(g);
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
    markLeaving(n);
  }

  /**
   * Marks the busy GPUs of a node with GPUs still to drop as leaving (all of them: which one
   * frees first is not known), and clears the mark once none is left to drop.
   */
  private void markLeaving(Node n) {
    for (YarnGpu g : n.slots) {
      boolean leaving = n.shrinkPending > 0 && g.running();
      if (g.leavingNow() != leaving) {
        g.leaving(leaving);
        touch(g);
      }
    }
  }

  private void replace(Node n, int i) {
    YarnGpu old = n.slots.get(i);
    left(old); // before the new one joins: both have the same position
    old.retire();
    touch(old);
    byId.remove(old.id());
    YarnGpu g = new YarnGpu(n.id, old.index(), n.type, generation, old.position()); // same slot
    touch(g);
    n.slots.set(i, g);
    byId.put(g.id(), g);
    joined(g);
  }

  private void drop(Node n, YarnGpu g) {
    left(g);
    g.retire();
    touch(g);
    byId.remove(g.id());
    n.slots.remove(g);
  }

  /**
   * The lowest device index no current GPU of {@code n} has: after a shrink that kept a busy GPU
   * of a high index, growing again must not give its index to a second GPU.
   */
  private static int lowestFreeIndex(Node n) {
    boolean[] used = new boolean[n.slots.size() + 1];
    for (YarnGpu g : n.slots) {
      if (g.index() < used.length) {
        used[g.index()] = true;
      }
    }
    int i = 0;
    while (used[i]) {
      i++;
    }
    return i;
  }

  /** Position in cluster order: the node's, then the order the GPU took its slot in. */
  private static long position(Node n, int appendedAs) {
    return (n.order << 32) + appendedAs;
  }

  /** A GPU became current (new, or replacing one). */
  private void joined(YarnGpu g) {
    totals.merge(g.type(), 1, Integer::sum);
    freeCounts.putIfAbsent(g.type(), 0);
    if (!g.taken()) {
      addFree(g);
    }
  }

  /** A current GPU is about to retire. */
  private void left(YarnGpu g) {
    removeFree(g);
    if (totals.merge(g.type(), -1, Integer::sum) == 0) {
      totals.remove(g.type());
      freeCounts.remove(g.type());
    }
  }

  private void addFree(YarnGpu g) {
    int at = Collections.binarySearch(free, g, OFFER_ORDER);
    if (at < 0) {
      free.add(-at - 1, g);
      freeCounts.merge(g.type(), 1, Integer::sum);
    }
  }

  private void removeFree(YarnGpu g) {
    int at = Collections.binarySearch(free, g, OFFER_ORDER);
    if (at >= 0 && free.get(at) == g) {
      free.remove(at);
      freeCounts.merge(g.type(), -1, Integer::sum);
    }
  }

  /** The node left: all its GPUs retire (running tasks are killed by YARN). */
  void removeNode(NodeId id) {
    Node n = nodes.remove(id);
    if (n == null) {
      return;
    }
    for (YarnGpu g : n.slots) {
      left(g);
      g.retire();
      touch(g);
      byId.remove(g.id());
    }
    changed();
  }

  /** Whether YARN isolates the GPUs of {@code id} per container; false for an unknown node. */
  boolean isolated(NodeId id) {
    Node n = nodes.get(id);
    return n != null && n.isolated;
  }

  /** Records whether YARN isolates the node's GPUs per container; an unknown node is ignored. */
  void setIsolated(NodeId id, boolean isolated) {
    Node n = nodes.get(id);
    if (n != null) {
      n.isolated = isolated;
    }
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
    touch(g);
    stamp++;
    removeFree(g);
  }

  /** A task on {@code g} ended: the GPU is free, or retires if its node changed meanwhile. */
  void release(YarnGpu g) {
    g.free();
    touch(g);
    stamp++;
    Node n = nodes.get(g.nodeId());
    if (g.retired() || n == null) {
      return;
    }
    if (n.shrinkPending > 0) {
      drop(n, g);
      n.shrinkPending--;
      markLeaving(n);
      changed();
    } else if (!g.type().equals(n.type)) {
      generation++;
      replace(n, n.slots.indexOf(g));
      changed();
    } else {
      addFree(g);
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

  /** Number of GPUs of {@code node} free for a task; 0 for an unknown node. */
  int freeCountOn(NodeId node) {
    int n = 0;
    for (YarnGpu g : on(node)) {
      n += g.taken() ? 0 : 1;
    }
    return n;
  }

  /** The current GPUs of {@code node} by index; empty for an unknown node. */
  List<YarnGpu> on(NodeId node) {
    Node n = nodes.get(node);
    return n == null ? List.of() : Collections.unmodifiableList(n.slots);
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

  /**
   * Free GPUs, type by type in type order, each in cluster order: the offer to a policy. A view,
   * valid until the next change of the inventory (the caller offers it and checks the answer
   * before any GPU starts).
   */
  List<YarnGpu> free() {
    return freeView;
  }

  /** Number of free GPUs. */
  int freeCount() {
    return free.size();
  }

  /** GPU counts of the current GPUs per type (total, free), types sorted. */
  Map<GpuType, int[]> counts() {
    Map<GpuType, int[]> m = new TreeMap<>();
    totals.forEach((t, c) -> m.put(t, new int[] {c, freeCounts.getOrDefault(t, 0)}));
    return m;
  }

  private void touch(YarnGpu g) {
    if (!g.touched) {
      g.touched = true;
      touched.add(g);
    }
  }

  /**
   * GPUs whose state changed since the last call (new, started, freed, retired), each once, for
   * the policy host to publish; starts a new set.
   */
  List<YarnGpu> drainTouched() {
    if (touched.isEmpty()) {
      return List.of();
    }
    List<YarnGpu> out = touched;
    touched = new ArrayList<>();
    for (YarnGpu g : out) {
      g.touched = false;
    }
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
