package io.hare.core.policy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * When the GPUs of one type can take a task, as seen during one dispatch call: the free ones now,
 * the busy ones at their expected compute ends. Busy end times are read from the tracker's sorted
 * map only as far as a job needs, never copied whole, so a call costs what it hands out.
 *
 * <p>A GPU handed out or claimed in this call is gone for the rest of the call: lower-ranked jobs
 * do not plan to wait behind higher-ranked ones (measured: counting such GPUs as free again later
 * made lower-ranked jobs wait for fast GPUs that higher-ranked rounds then took, and idled the slow
 * types).
 */
final class TypeSlots {

  /** A GPU's availability: {@code gpu} is set for a GPU free now, null for a busy one. */
  record Avail(long atMs, GpuView gpu) {}

  private final long nowMs;
  private final ArrayDeque<GpuView> freeNow = new ArrayDeque<>();
  private final Iterator<Map.Entry<Long, Integer>> busy;
  private final List<Long> busyPeeked = new ArrayList<>(); // ascending, not yet claimed
  private long busyKey;
  private int busyLeft;

  TypeSlots(long nowMs, List<GpuView> free, NavigableMap<Long, Integer> busyEnds) {
    this.nowMs = nowMs;
    this.freeNow.addAll(free);
    this.busy = busyEnds == null ? Collections.emptyIterator() : busyEnds.entrySet().iterator();
  }

  /** Up to {@code n} earliest availabilities, free GPUs first, without taking them. */
  List<Avail> earliest(int n) {
    List<Avail> out = new ArrayList<>(Math.min(n, 16));
    for (GpuView g : freeNow) {
      if (out.size() == n) {
        return out;
      }
      out.add(new Avail(nowMs, g));
    }
    while (busyPeeked.size() < n - out.size() && fetchBusy()) {
      // read busy ends only as far as needed
    }
    for (int i = 0; i < busyPeeked.size() && out.size() < n; i++) {
      out.add(new Avail(busyPeeked.get(i), null));
    }
    return out;
  }

  private boolean fetchBusy() {
    if (busyLeft == 0) {
      if (!busy.hasNext()) {
        return false;
      }
      Map.Entry<Long, Integer> e = busy.next();
      busyKey = Math.max(nowMs + 1, e.getKey()); // a task past its estimate ends "now"
      busyLeft = e.getValue();
    }
    busyPeeked.add(busyKey);
    busyLeft--;
    return true;
  }

  /** Takes a free GPU now. */
  GpuView takeFree(GpuView gpu) {
    freeNow.remove(gpu);
    return gpu;
  }

  /** Claims the busy GPU available at {@code atMs} for tasks that wait for it. */
  void claim(long atMs) {
    busyPeeked.remove(Long.valueOf(atMs));
  }
}
