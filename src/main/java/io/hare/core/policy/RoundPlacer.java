package io.hare.core.policy;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
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
 */
final class RoundPlacer {

  private int n; // candidates
  private int[] type = new int[32];
  private long[] at = new long[32];
  private boolean[] freeNow = new boolean[32];
  private double[] computeMs = new double[32];
  private double[] syncMs = new double[32];
  private int[] used = new int[32];
  /** nextFinish of each candidate, kept in step with {@code used}. */
  private double[] key = new double[32];
  private int[] heap = new int[32];
  private int size;
  private long[] slotBuffer = new long[16];

  /**
   * @param allowed GPU types the job may use, or null for all it can run on
   */
  void place(DispatchCall call, JobView job, Set<GpuType> allowed) {
    int tasks = job.readyTasks();
    n = 0;
    for (int t = 0; t < call.types.size(); t++) {
      GpuType gt = call.types.get(t);
      if (allowed != null && !allowed.contains(gt)) {
        continue; // before the estimate, which costs more than the set lookup
      }
      TaskTimes tt = job.times(gt);
      if (tt == null) {
        continue;
      }
      TypeSlots ts = call.slots(t);
      int freeHere = Math.min(tasks, ts.freeLeft());
      if (slotBuffer.length < tasks) {
        slotBuffer = new long[Math.max(tasks, 2 * slotBuffer.length)];
      }
      int m = ts.earliest(tasks, slotBuffer);
      ensure(n + m);
      for (int i = 0; i < m; i++) {
        type[n] = t;
        at[n] = slotBuffer[i];
        freeNow[n] = i < freeHere;
        computeMs[n] = tt.computeMs();
        syncMs[n] = tt.syncMs();
        used[n] = 0;
        key[n] = nextFinish(n);
        n++;
      }
    }
    if (n == 0) {
      return;
    }
    if (tasks == 1) {
      // a heap filled in order has the first of its smallest elements on top
      int best = 0;
      for (int i = 1; i < n; i++) {
        if (compare(i, best) < 0) {
          best = i;
        }
      }
      used[best]++;
    } else {
      size = 0;
      for (int i = 0; i < n; i++) {
        offer(i);
      }
      for (int i = 0; i < tasks && size > 0; i++) {
        int c = poll();
        used[c]++;
        key[c] = nextFinish(c);
        offer(c);
      }
    }
    for (int i = 0; i < n; i++) {
      if (used[i] == 0) {
        continue;
      }
      TypeSlots ts = call.slots(type[i]);
      if (!freeNow[i]) {
        ts.claim(at[i]); // these tasks wait for this GPU
        call.someWait = true;
        continue;
      }
      GpuView g = ts.takeFree(); // free GPUs of a type are interchangeable
      if (g != null) {
        call.out.add(new Assignment(g.id(), job.id()));
        call.free--;
      }
    }
  }

  /** When one more task put on candidate {@code i} would finish compute and sync. */
  private double nextFinish(int i) {
    return at[i] + (used[i] + 1) * computeMs[i] + syncMs[i];
  }

  private int compare(int x, int y) {
    return Double.compare(key[x], key[y]);
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
    freeNow = Arrays.copyOf(freeNow, c);
    computeMs = Arrays.copyOf(computeMs, c);
    syncMs = Arrays.copyOf(syncMs, c);
    used = Arrays.copyOf(used, c);
    key = Arrays.copyOf(key, c);
    heap = Arrays.copyOf(heap, c);
  }
}
