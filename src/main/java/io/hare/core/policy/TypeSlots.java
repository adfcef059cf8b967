package io.hare.core.policy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.PriorityQueue;

/**
 * When the GPUs of one type become available, as seen during one dispatch call: the free ones
 * now, the busy ones at their expected compute ends, and those that earlier (higher-ranked) jobs
 * of the same call have claimed, later. Built lazily and cheaply: busy end times are read from
 * the tracker's sorted map only as far as a job needs, never copied whole.
 */
final class TypeSlots {

  /**
   * A GPU's availability: {@code gpu} is set for a GPU free now, null for a busy one;
   * {@code untilMs} is when a free GPU reserved by a higher-ranked job must be free again
   * (Long.MAX_VALUE if not reserved): only a task that ends by then may use it now (backfill).
   */
  record Avail(long atMs, GpuView gpu, long untilMs) {}

  static final boolean WAIT = Boolean.parseBoolean(System.getProperty("hare.wait", "true"));
  static final boolean LATER = Boolean.parseBoolean(System.getProperty("hare.later", "true"));
  private final long nowMs;
  private final ArrayDeque<GpuView> freeNow = new ArrayDeque<>();
  /** Free GPUs reserved by a higher-ranked job from a later time: usable now for short tasks. */
  private final List<Avail> backfill = new ArrayList<>();
  private final Iterator<Map.Entry<Long, Integer>> busy;
  private final List<Long> busyPeeked = new ArrayList<>(); // ascending, not yet consumed
  private long busyKey;
  private int busyLeft;
  private final PriorityQueue<Long> later = new PriorityQueue<>();

  TypeSlots(long nowMs, List<GpuView> free, NavigableMap<Long, Integer> busyEnds) {
    this.nowMs = nowMs;
    this.freeNow.addAll(free);
    this.busy = busyEnds == null ? Collections.emptyIterator() : busyEnds.entrySet().iterator();
  }

  /** GPUs that could still start a task now. */
  int startableNow() {
    return freeNow.size() + backfill.size();
  }

  /** Free GPUs reserved from a later time, usable now by a task that ends in time. */
  List<Avail> backfill() {
    return backfill;
  }

  /** Up to {@code n} earliest availabilities, ascending, without consuming them. */
  List<Avail> earliest(int n) {
    List<Avail> out = new ArrayList<>(n);
    for (GpuView g : freeNow) {
      if (out.size() == n) {
        return out;
      }
      out.add(new Avail(nowMs, g, Long.MAX_VALUE));
    }
    while (WAIT && busyPeeked.size() < n && fetchBusy()) {
      // peek as far as needed
    }
    List<Long> laterSorted = new ArrayList<>(later);
    Collections.sort(laterSorted);
    int b = 0;
    int l = 0;
    while (out.size() < n && (b < busyPeeked.size() || l < laterSorted.size())) {
      boolean takeBusy = l >= laterSorted.size()
          || (b < busyPeeked.size() && busyPeeked.get(b) <= laterSorted.get(l));
      out.add(new Avail(takeBusy ? busyPeeked.get(b++) : laterSorted.get(l++), null,
          Long.MAX_VALUE));
    }
    return out;
  }

  private boolean fetchBusy() {
    if (busyLeft == 0) {
      if (!busy.hasNext()) {
        return false;
      }
      Map.Entry<Long, Integer> e = busy.next();
      busyKey = Math.max(nowMs + 1, e.getKey()); // an overdue task ends "now"
      busyLeft = e.getValue();
    }
    busyPeeked.add(busyKey);
    busyLeft--;
    return true;
  }

  /** Takes a free GPU now; it becomes available again at {@code untilMs}. */
  GpuView takeFree(GpuView gpu, long untilMs) {
    freeNow.remove(gpu);
    if (LATER) {
      later.add(untilMs);
    }
    return gpu;
  }

  /**
   * A higher-ranked job that is not ready yet reserves a free GPU from {@code fromMs} until
   * {@code untilMs}; until then it may be lent to a task that ends by {@code fromMs}.
   */
  void reserveFree(GpuView gpu, long fromMs, long untilMs) {
    freeNow.remove(gpu);
    backfill.add(new Avail(nowMs, gpu, fromMs));
    later.add(untilMs);
  }

  /** Lends a reserved free GPU to a task that ends before the reservation starts. */
  GpuView takeBackfill(Avail a) {
    backfill.remove(a);
    return a.gpu();
  }

  /** Claims a busy or already claimed GPU available at {@code atMs} until {@code untilMs}. */
  void claim(long atMs, long untilMs) {
    if (!later.remove(atMs)) {
      busyPeeked.remove(Long.valueOf(atMs));
    }
    if (LATER) {
      later.add(untilMs);
    }
  }
}
