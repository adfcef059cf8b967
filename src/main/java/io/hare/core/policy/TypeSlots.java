package io.hare.core.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * When the GPUs of one type can take a task, as seen during one dispatch call: the free ones now,
 * the busy ones at their expected compute ends. Nothing is copied: free GPUs are taken from the
 * end of the given list and busy end times are read from the tracker's sorted map only as far as
 * a job needs, so a call costs what it hands out, not the size of the cluster.
 *
 * <p>A GPU handed out or claimed in this call is gone for the rest of the call: lower-ranked jobs
 * do not plan to wait behind higher-ranked ones (measured: counting such GPUs as available again
 * later made lower-ranked jobs wait for fast GPUs that higher-ranked rounds then took, and idled
 * the slow types).
 */
final class TypeSlots {

  private final long nowMs;
  private final List<GpuView> free;
  private int freeTaken;
  private final Iterator<Map.Entry<Long, Integer>> busy;
  private final List<Long> busyPeeked = new ArrayList<>(); // ascending, not yet claimed
  private long busyKey;
  private int busyLeft;

  TypeSlots(long nowMs, List<GpuView> free, NavigableMap<Long, Integer> busyEnds) {
    this.nowMs = nowMs;
    this.free = free;
    this.busy = busyEnds == null ? Collections.emptyIterator() : busyEnds.entrySet().iterator();
  }

  int freeLeft() {
    return free.size() - freeTaken;
  }

  /**
   * Up to {@code n} earliest availabilities, ascending, without taking them: {@code now} for
   * each free GPU, then the busy GPUs' expected ends.
   */
  long[] earliest(int n) {
    int f = Math.min(n, freeLeft());
    while (busyPeeked.size() < n - f && fetchBusy()) {
      // read busy ends only as far as needed
    }
    int b = Math.min(n - f, busyPeeked.size());
    long[] out = new long[f + b];
    java.util.Arrays.fill(out, 0, f, nowMs);
    for (int i = 0; i < b; i++) {
      out[f + i] = busyPeeked.get(i);
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

  /** Takes one free GPU now, or null if none is left that is really free. */
  GpuView takeFree() {
    while (freeTaken < free.size()) {
      GpuView g = free.get(free.size() - 1 - freeTaken++);
      if (!g.busy()) {
        return g;
      }
    }
    return null;
  }

  /** Claims the busy GPU available at {@code atMs} for tasks that wait for it. */
  void claim(long atMs) {
    busyPeeked.remove(Long.valueOf(atMs));
  }
}
