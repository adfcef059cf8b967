package io.hare.core.policy.hare;

import io.hare.core.policy.GpuView;
import java.util.Arrays;
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
 *
 * <p>Busy ends read so far and not claimed are kept ascending in a primitive array from
 * {@code head} on; jobs claim the earliest ones, so a claim is almost always the head.
 *
 * <p>A free GPU may be <em>held</em> for a job between rounds until its next round is expected
 * ready ({@link RoundPlacer#hold}); a lower-ranked job may still run one task there whose compute
 * ends by then (backfilling), so a hold delays nobody who would have finished anyway.
 */
final class TypeSlots {

  private long nowMs;
  private List<GpuView> free;
  private int freeTaken;
  private Iterator<Map.Entry<Long, Integer>> busy;
  private long[] peeked = new long[16]; // busy ends read, ascending; [head, end) not claimed
  private int head;
  private int end;
  private long busyKey;
  private int busyLeft;
  /**
   * Free GPUs held in this call, ascending by the end of their hold and, among equal ends, in
   * the order they were held: a backfill count is then a binary search, not a scan of every
   * hold (thousands, on a large cluster between rounds), and the tightest fit is the first
   * that fits.
   */
  private GpuView[] heldGpu = new GpuView[0];
  private long[] heldUntil = new long[0];
  private int held;

  TypeSlots(long nowMs, List<GpuView> free, NavigableMap<Long, Integer> busyEnds) {
    reset(nowMs, free, busyEnds);
  }

  /**
   * Starts a new call on these slots, as if new. A dispatcher reuses one per type across its
   * calls: a large cluster's heartbeats run thousands of calls a second, and each call's holds
   * (hundreds per type) would otherwise grow fresh arrays from nothing.
   */
  TypeSlots reset(long nowMs, List<GpuView> free, NavigableMap<Long, Integer> busyEnds) {
    this.nowMs = nowMs;
    this.free = free;
    this.freeTaken = 0;
    this.busy = busyEnds == null ? Collections.emptyIterator() : busyEnds.entrySet().iterator();
    this.head = 0;
    this.end = 0;
    this.busyKey = 0;
    this.busyLeft = 0;
    Arrays.fill(heldGpu, 0, held, null); // no GPU of an earlier call kept reachable
    this.held = 0;
    return this;
  }

  int freeLeft() {
    return free.size() - freeTaken;
  }

  /**
   * Writes up to {@code n} earliest availabilities into {@code out}, ascending, without taking
   * them: {@code now} for each free GPU, then the busy GPUs' expected ends.
   *
   * @return how many were written
   */
  int earliest(int n, long[] out) {
    int f = Math.min(n, freeLeft());
    while (end - head < n - f && fetchBusy()) {
      // read busy ends only as far as needed
    }
    int b = Math.min(n - f, end - head);
    Arrays.fill(out, 0, f, nowMs);
    System.arraycopy(peeked, head, out, f, b);
    return f + b;
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
    if (end == peeked.length) {
      if (head > 0) {
        System.arraycopy(peeked, head, peeked, 0, end - head);
        end -= head;
        head = 0;
      } else {
        peeked = Arrays.copyOf(peeked, 2 * peeked.length);
      }
    }
    peeked[end++] = busyKey;
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

  /**
   * Writes up to {@code n} earliest busy ends into {@code out}, ascending, without claiming
   * them (free GPUs aside).
   *
   * @return how many were written
   */
  int busyEarliest(int n, long[] out) {
    while (end - head < n && fetchBusy()) {
      // read busy ends only as far as needed
    }
    int b = Math.min(n, end - head);
    System.arraycopy(peeked, head, out, 0, b);
    return b;
  }

  /** Takes one free GPU and holds it until {@code untilMs}; false if none is left. */
  boolean hold(long untilMs) {
    GpuView g = takeFree();
    if (g == null) {
      return false;
    }
    if (held == heldGpu.length) {
      heldGpu = Arrays.copyOf(heldGpu, Math.max(4, 2 * held));
      heldUntil = Arrays.copyOf(heldUntil, heldGpu.length);
    }
    // after every hold ending no later: equal ends stay in the order held
    int at = after(untilMs);
    System.arraycopy(heldGpu, at, heldGpu, at + 1, held - at);
    System.arraycopy(heldUntil, at, heldUntil, at + 1, held - at);
    heldGpu[at] = g;
    heldUntil[at] = untilMs;
    held++;
    return true;
  }

  /** Index of the first hold ending after {@code untilMs}; held if none. */
  private int after(long untilMs) {
    int lo = 0;
    int hi = held;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (heldUntil[mid] > untilMs) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Held GPUs on which a task of {@code computeMs} started now ends before its hold does. */
  int backfillable(double computeMs) {
    return held - firstFit(computeMs);
  }

  /** Index of the first hold a task of {@code computeMs} started now fits in; held if none. */
  private int firstFit(double computeMs) {
    int lo = 0;
    int hi = held;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (nowMs + computeMs <= heldUntil[mid]) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /**
   * Takes a held GPU for a task of {@code computeMs} that ends before its hold: the tightest
   * fit, so longer gaps stay for longer tasks (the first held among equals); null if none.
   */
  GpuView takeBackfill(double computeMs) {
    int best = firstFit(computeMs);
    if (best == held) {
      return null;
    }
    GpuView g = heldGpu[best];
    System.arraycopy(heldGpu, best + 1, heldGpu, best, held - best - 1);
    System.arraycopy(heldUntil, best + 1, heldUntil, best, held - best - 1);
    heldGpu[--held] = null;
    return g;
  }

  /** Claims the busy GPU available at {@code atMs} for tasks that wait for it. */
  void claim(long atMs) {
    for (int i = head; i < end; i++) {
      if (peeked[i] == atMs) {
        System.arraycopy(peeked, head, peeked, head + 1, i - head); // keep the rest ascending
        head++;
        return;
      }
    }
  }
}
