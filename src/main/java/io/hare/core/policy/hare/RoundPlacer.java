package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.Arrays;
import java.util.Set;

/**
 * Places the ready tasks of one job's round for a {@link PriorityDispatcher} call: on the GPUs
 * where the round ends first, the earliest task finishes over the GPUs of the types it may use,
 * a GPU taking several tasks in a row when that is sooner than a slower type (relaxed
 * fixed-scale synchronisation). Picking the smallest finishes one by one minimises the end of
 * the round for identical tasks.
 *
 * <p>A dispatch visits every ready job until no free GPU is left, which on a large, contended
 * cluster means hundreds of jobs at each of a thousand heartbeats a second; so the candidates
 * live in reused primitive arrays and the selection is a binary heap of indices, the same
 * algorithm as {@link java.util.PriorityQueue} (filled in candidate order, one element at a
 * time, same comparisons), so the choices, ties included, are those of the object version it
 * replaces. Not thread-safe: one per dispatcher.
 *
 * <p><b>Types outside the job's affinity</b> are banned by default. With a finite
 * {@code affinity-penalty} p they are candidates whose tasks compare as if they took (1 + p)
 * times their real compute and sync there (the wait for the GPU is not scaled); what the round is
 * given is the same GPUs at their real times, so a task goes outside the affinity only when it
 * would still end first with the penalty. Relative rather than an added number of milliseconds:
 * task times span seconds to hours across jobs, so a fixed delay would be nothing to one job and
 * a ban to another, while (1 + p) reads the same for all ("leave the LP's types only to save
 * more than p of the task's time there"), like the LP's relative type shares that set affinity.
 */
final class RoundPlacer {

  private static final byte FREE = 0;
  private static final byte BACKFILL = 1; // a GPU held for another job, for one task that fits
  private static final byte BUSY = 2;

  private int n; // candidates
  private int[] type = new int[32];
  private long[] at = new long[32];
  /** A busy candidate's own end, where {@code at} is later (a hold's ready time). */
  private long[] busyEnd = new long[32];
  private byte[] kind = new byte[32];
  private double[] computeMs = new double[32];
  private double[] syncMs = new double[32];
  /** 1, or 1 + penalty for a type outside the job's affinity. */
  private double[] scale = new double[32];
  private int[] used = new int[32];
  /** nextFinish of each candidate, kept in step with {@code used}. */
  private double[] key = new double[32];
  private int[] heap = new int[32];
  private int size;
  private long[] slotBuffer = new long[16];
  /** Ties go to the candidate listed first (holds), else as a heap breaks them (dispatch). */
  private boolean byIndex;
  /** Longest sync left, as a share of the task's compute there, that holds a free GPU. */
  private final double holdMaxShare;
  /** 1 + affinity-penalty: the scale of a task outside the affinity; infinite: a ban. */
  private final double outsideScale;

  /** Holds free GPUs whatever the length of the sync; bans types outside the affinity. */
  RoundPlacer() {
    this(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
  }

  /**
   * @param affinityPenalty a task on a type outside the job's affinity compares as if it took
   *     (1 + this) times its time; infinite: such types are banned
   */
  RoundPlacer(double holdMaxShare, double affinityPenalty) {
    if (!(affinityPenalty >= 0)) {
      throw new IllegalArgumentException("affinity penalty must be >= 0, got " + affinityPenalty);
    }
    this.holdMaxShare = holdMaxShare;
    this.outsideScale = 1 + affinityPenalty;
  }

  /**
   * The scale of the job's tasks on type {@code gt}: 1 inside its affinity, else 1 + penalty;
   * 0 when the type is banned.
   */
  private double scaleOf(Set<GpuType> allowed, GpuType gt) {
    if (allowed == null || allowed.contains(gt)) {
      return 1;
    }
    return outsideScale == Double.POSITIVE_INFINITY ? 0 : outsideScale;
  }

  /**
   * @param allowed GPU types of the job's affinity, or null for all it can run on alike
   */
  void place(DispatchCall call, JobView job, Set<GpuType> allowed) {
    int tasks = job.readyTasks();
    n = 0;
    for (int t = 0; t < call.types.size(); t++) {
      GpuType gt = call.types.get(t);
      double sc = scaleOf(allowed, gt);
      if (sc == 0) {
        continue; // before the estimate, which costs more than the set lookup
      }
      TaskTimes tt = job.times(gt);
      if (tt == null) {
        continue;
      }
      TypeSlots ts = call.slots(t);
      int freeHere = Math.min(tasks, ts.freeLeft());
      ensureBuffer(tasks);
      int m = ts.earliest(tasks, slotBuffer);
      int fill = call.held == 0 ? 0 : Math.min(tasks, ts.backfillable(tt.computeMs()));
      ensure(n + m + fill);
      // the free GPUs (the first freeHere slots), then the held ones a task fits in, then busy
      for (int i = 0; i < freeHere; i++) {
        add(t, slotBuffer[i], FREE, tt, sc);
      }
      for (int b = 0; b < fill; b++) {
        add(t, call.nowMs, BACKFILL, tt, sc);
      }
      for (int i = freeHere; i < m; i++) {
        add(t, slotBuffer[i], BUSY, tt, sc);
      }
    }
    if (n == 0) {
      return;
    }
    choose(tasks);
    for (int i = 0; i < n; i++) {
      if (used[i] == 0) {
        continue;
      }
      TypeSlots ts = call.slots(type[i]);
      if (kind[i] == BUSY) {
        ts.claim(at[i]); // these tasks wait for this GPU
        call.someWait = true;
        continue;
      }
      // free GPUs of a type are interchangeable
      GpuView g = kind[i] == FREE ? ts.takeFree() : ts.takeBackfill(computeMs[i]);
      if (g != null) {
        call.out.add(new Assignment(g.id(), job.id()));
        if (kind[i] == FREE) {
          call.free--;
        } else {
          call.held--;
        }
      }
    }
  }

  /**
   * Holds GPUs for the next round of a job between rounds, ready at {@code readyMs}: its
   * {@code tasks} are placed as if ready then, where the round would end first. A free GPU chosen
   * is held until {@code readyMs} (lower-ranked jobs may backfill it, {@link TypeSlots}); a busy
   * one that frees later is claimed as for a ready task. A free GPU of a type is a candidate only
   * while {@code readyMs - now} is at most {@code holdMaxShare} x the job's compute there. Ties go
   * first to busy GPUs expected to free by then, leaving the free ones to others, then to free
   * GPUs: a busy GPU already past its task's estimate may run long, so it comes after them.
   *
   * @return how many free GPUs it held
   */
  int hold(DispatchCall call, JobView job, int tasks, long readyMs, Set<GpuType> allowed) {
    n = 0;
    ensureBuffer(tasks);
    for (int t = 0; t < call.types.size(); t++) {
      GpuType gt = call.types.get(t);
      double sc = scaleOf(allowed, gt);
      if (sc == 0) {
        continue;
      }
      TaskTimes tt = job.times(gt);
      if (tt == null) {
        continue;
      }
      TypeSlots ts = call.slots(t);
      // a free GPU idles until readyMs: worth it only when that is short against a task there
      int freeHere = readyMs - call.nowMs > holdMaxShare * tt.computeMs() ? 0
          : Math.min(tasks, ts.freeLeft());
      int m = ts.busyEarliest(tasks, slotBuffer);
      // Only the first `tasks` candidates of a type are listed: each starts no earlier than the
      // ones listed before it (at readyMs, or at its end when later), and ties go to the one
      // listed first, so a task goes to a later candidate only once every earlier one has a
      // task, and a round of `tasks` never reaches past the first `tasks`. Listing the rest
      // (often as many again: free GPUs besides busy ones) only grows the heap.
      int room = tasks;
      ensure(n + room);
      // busy GPUs due by then first: they leave the free ones to others; but not those past
      // their estimate (read as ending a millisecond from now), which may run long
      for (int i = 0; i < m && room > 0; i++) {
        if (dueBy(slotBuffer[i], call.nowMs, readyMs)) {
          add(t, slotBuffer[i], BUSY, tt, sc);
          room--;
        }
      }
      for (int f = 0; f < freeHere && room > 0; f++) {
        add(t, call.nowMs, FREE, tt, sc);
        room--;
      }
      for (int i = 0; i < m && room > 0; i++) {
        if (!dueBy(slotBuffer[i], call.nowMs, readyMs)) {
          add(t, slotBuffer[i], BUSY, tt, sc);
          room--;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      busyEnd[i] = at[i];
      at[i] = Math.max(at[i], readyMs);
      key[i] = nextFinish(i);
    }
    if (n == 0) {
      return 0;
    }
    byIndex = true;
    choose(tasks);
    byIndex = false;
    int heldHere = 0;
    for (int i = 0; i < n; i++) {
      if (used[i] == 0) {
        continue;
      }
      TypeSlots ts = call.slots(type[i]);
      if (kind[i] == BUSY) {
        ts.claim(busyEnd[i]);
      } else if (ts.hold(readyMs)) {
        call.free--;
        call.held++;
        heldHere++;
      }
    }
    return heldHere;
  }

  /** How many candidates the last {@link #place} or {@link #hold} listed. */
  int candidates() {
    return n;
  }

  private static boolean dueBy(long endMs, long nowMs, long readyMs) {
    return endMs <= readyMs && endMs > nowMs + 1;
  }

  private void add(int t, long atMs, byte k, TaskTimes tt, double sc) {
    type[n] = t;
    at[n] = atMs;
    kind[n] = k;
    computeMs[n] = tt.computeMs();
    syncMs[n] = tt.syncMs();
    scale[n] = sc;
    used[n] = 0;
    key[n] = nextFinish(n);
    n++;
  }

  /** Puts {@code tasks} on the candidates, each where it finishes first. */
  private void choose(int tasks) {
    if (tasks == 1) {
      // a heap filled in order has the first of its smallest elements on top
      int best = 0;
      for (int i = 1; i < n; i++) {
        if (compare(i, best) < 0) {
          best = i;
        }
      }
      used[best]++;
      return;
    }
    size = 0;
    for (int i = 0; i < n; i++) {
      offer(i);
    }
    // what the round is given is which candidates have a task, not how many: once each has
    // one, the tasks left (a job asking for thousands on a few GPUs) change nothing
    int unused = n;
    for (int i = 0; i < tasks && size > 0 && unused > 0; i++) {
      int c = poll();
      if (used[c]++ == 0) {
        unused--;
      }
      key[c] = nextFinish(c);
      if (kind[c] != BACKFILL) { // a backfilled gap takes one task
        offer(c);
      }
    }
  }

  private void ensureBuffer(int tasks) {
    if (slotBuffer.length < tasks) {
      slotBuffer = new long[Math.max(tasks, 2 * slotBuffer.length)];
    }
  }

  /**
   * When one more task put on candidate {@code i} would finish compute and sync, its time scaled
   * by the affinity penalty outside the job's affinity.
   */
  private double nextFinish(int i) {
    if (scale[i] == 1) { // the same operations as before penalties, so the same doubles
      return at[i] + (used[i] + 1) * computeMs[i] + syncMs[i];
    }
    return at[i] + ((used[i] + 1) * computeMs[i] + syncMs[i]) * scale[i];
  }

  private int compare(int x, int y) {
    int c = Double.compare(key[x], key[y]);
    // a hold lists candidates by preference: the first of equals wins
    return c != 0 || !byIndex ? c : Integer.compare(x, y);
  }

  // java.util.PriorityQueue's offer and poll with a comparator, on indices

  private void offer(int x) {
    int k = size++;
    while (k > 0) {
      int parent = (k - 1) >>> 1;
      int e = heap[parent];
      if (compare(x, e) >= 0) {
        break;
      }
      heap[k] = e;
      k = parent;
    }
    heap[k] = x;
  }

  private int poll() {
    int result = heap[0];
    int last = --size;
    int x = heap[last];
    if (last > 0) {
      int k = 0;
      int half = last >>> 1;
      while (k < half) {
        int child = (k << 1) + 1;
        int c = heap[child];
        int right = child + 1;
        if (right < last && compare(c, heap[right]) > 0) {
          c = heap[child = right];
        }
        if (compare(x, c) <= 0) {
          break;
        }
        heap[k] = c;
        k = child;
      }
      heap[k] = x;
    }
    return result;
  }

  private void ensure(int capacity) {
    if (type.length >= capacity) {
      return;
    }
    int c = Math.max(capacity, 2 * type.length);
    type = Arrays.copyOf(type, c);
    at = Arrays.copyOf(at, c);
    busyEnd = Arrays.copyOf(busyEnd, c);
    kind = Arrays.copyOf(kind, c);
    computeMs = Arrays.copyOf(computeMs, c);
    syncMs = Arrays.copyOf(syncMs, c);
    scale = Arrays.copyOf(scale, c);
    used = Arrays.copyOf(used, c);
    key = Arrays.copyOf(key, c);
    heap = Arrays.copyOf(heap, c);
  }
}
