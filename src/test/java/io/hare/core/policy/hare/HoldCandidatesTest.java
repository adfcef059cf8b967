package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.GpuView;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeCluster;
import io.hare.testing.FakeCluster.Gpu;
import io.hare.testing.FakeJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.Test;

/**
 * A hold ({@link RoundPlacer#hold}) lists at most as many candidates of a type as it has tasks,
 * and chooses what a hold listing every candidate (busy GPUs due by the ready time, then free
 * GPUs, then busy GPUs not due; up to {@code tasks} of each) chooses: the same free GPUs held and
 * the same busy GPUs claimed. On a large cluster a hold sees free GPUs and busy ones of every
 * type, and listing them all doubled the heap a hold chooses with, at every pass, for every job
 * between rounds (docs/performance.md, "Cheaper holds").
 */
public class HoldCandidatesTest {

  private static final long NOW = 100_000;
  private static final List<GpuType> TYPES =
      List.of(GpuType.of("v100"), GpuType.of("t4"), GpuType.of("k80"));
  private static final double SHARE = 0.5;

  @Test(timeout = 10_000)
  public void aHoldListsNoMoreCandidatesOfATypeThanItHasTasks() {
    TaskTimeModel times = ProfileTable.builder()
        .put("h", "v100", 1000, 100).put("x", "v100", 1000, 0).build();
    List<Gpu> gpus = new ArrayList<>();
    HareTracker tracker = new HareTracker();
    FakeJob x = new FakeJob("x", "x", 1, OptionalInt.empty(), times);
    for (int i = 0; i < 3; i++) { // busy, due at NOW + 100, 200, 300
      Gpu b = new Gpu("b" + i, TYPES.get(0), true);
      gpus.add(b);
      tracker.started(x, b, NOW - 900 + 100 * i);
    }
    for (int i = 0; i < 3; i++) {
      gpus.add(new Gpu("f" + i, TYPES.get(0), false));
    }
    FakeJob h = new FakeJob("h", "h", 2, OptionalInt.empty(), times);
    DispatchCall call = call(gpus, times, tracker, h, x);
    RoundPlacer placer = new RoundPlacer(SHARE, Double.POSITIVE_INFINITY);

    assertEquals(0, placer.hold(call, h, 2, NOW + 400, null));

    assertEquals(2, placer.candidates()); // not 3 busy + 2 free
    long[] left = new long[8];
    assertEquals(1, call.slots(0).busyEarliest(8, left)); // the two due first are claimed
    assertEquals(NOW + 300, left[0]);
    assertEquals(3, call.free);
  }

  @Test(timeout = 60_000)
  public void aHoldChoosesAsIfItListedEveryCandidate() {
    Random r = new Random(21);
    for (int trial = 0; trial < 3000; trial++) {
      ProfileTable.Builder tb = ProfileTable.builder();
      for (GpuType t : TYPES) {
        tb.put("x", t.name(), 1000, 0);
        if (r.nextInt(5) > 0) { // some types the job cannot run on
          tb.put("h", t.name(), 100 * (1 + r.nextInt(20)), 10 * r.nextInt(30));
        }
      }
      TaskTimeModel times = tb.build();
      FakeJob x = new FakeJob("x", "x", 1, OptionalInt.empty(), times);
      HareTracker tracker = new HareTracker();
      List<Gpu> gpus = new ArrayList<>();
      for (GpuType t : TYPES) {
        int busy = r.nextInt(8);
        for (int i = 0; i < busy; i++) {
          Gpu b = new Gpu(t.name() + "-b" + i, t, true);
          gpus.add(b);
          // ends from past their estimate to well after the ready time, many equal
          tracker.started(x, b, NOW - 1500 + 100 * r.nextInt(20));
        }
        int free = r.nextInt(6);
        for (int i = 0; i < free; i++) {
          gpus.add(new Gpu(t.name() + "-f" + i, t, false));
        }
      }
      int tasks = 1 + r.nextInt(8);
      FakeJob h = new FakeJob("h", "h", tasks, OptionalInt.empty(), times);
      long readyMs = NOW + 100 * r.nextInt(10);
      DispatchCall call = call(gpus, times, tracker, h, x);
      int freeBefore = call.free;
      Map<Integer, long[]> busyBefore = new HashMap<>();
      for (int t = 0; t < call.types.size(); t++) { // the types with GPUs, in the call's order
        long[] ends = new long[64];
        busyBefore.put(t, java.util.Arrays.copyOf(ends, call.slots(t).busyEarliest(64, ends)));
      }
      Expected e = reference(call, h, tasks, readyMs, busyBefore);

      int held = new RoundPlacer(SHARE, Double.POSITIVE_INFINITY)
          .hold(call, h, tasks, readyMs, null);

      String where = "trial " + trial;
      assertEquals(where, e.held.values().stream().mapToInt(Integer::intValue).sum(), held);
      assertEquals(where, freeBefore - held, call.free);
      for (int t = 0; t < call.types.size(); t++) {
        TypeSlots ts = call.slots(t);
        long[] ends = new long[64];
        int m = ts.busyEarliest(64, ends);
        assertEquals(where + " type " + t, e.busyLeft.get(t),
            toList(java.util.Arrays.copyOf(ends, m)));
      }
    }
  }

  private record Expected(Map<Integer, Integer> held, Map<Integer, List<Long>> busyLeft) {}

  /** Every candidate listed, as before the limit: each task to the least (finish, position). */
  private static Expected reference(DispatchCall call, FakeJob h, int tasks, long readyMs,
      Map<Integer, long[]> busy) {
    List<long[]> cand = new ArrayList<>(); // type, at, kind (0 free, 1 busy), busy end
    List<double[]> cost = new ArrayList<>(); // compute, sync
    for (int t = 0; t < call.types.size(); t++) {
      TaskTimes tt = h.times(call.types.get(t));
      if (tt == null) {
        continue;
      }
      long[] ends = busy.get(t);
      int m = Math.min(tasks, ends.length);
      int freeHere = readyMs - NOW > SHARE * tt.computeMs() ? 0
          : Math.min(tasks, call.slots(t).freeLeft());
      for (int i = 0; i < m; i++) {
        if (ends[i] <= readyMs && ends[i] > NOW + 1) {
          cand.add(new long[] {t, readyMs, 1, ends[i]});
          cost.add(new double[] {tt.computeMs(), tt.syncMs()});
        }
      }
      for (int f = 0; f < freeHere; f++) {
        cand.add(new long[] {t, readyMs, 0, 0});
        cost.add(new double[] {tt.computeMs(), tt.syncMs()});
      }
      for (int i = 0; i < m; i++) {
        if (!(ends[i] <= readyMs && ends[i] > NOW + 1)) {
          cand.add(new long[] {t, Math.max(ends[i], readyMs), 1, ends[i]});
          cost.add(new double[] {tt.computeMs(), tt.syncMs()});
        }
      }
    }
    int[] used = new int[cand.size()];
    for (int k = 0; k < tasks && !cand.isEmpty(); k++) {
      int best = 0;
      for (int i = 1; i < cand.size(); i++) {
        if (finish(cand.get(i), cost.get(i), used[i]) < finish(cand.get(best), cost.get(best),
            used[best])) {
          best = i;
        }
      }
      used[best]++;
    }
    Map<Integer, Integer> held = new HashMap<>();
    Map<Integer, List<Long>> busyLeft = new HashMap<>();
    for (int t = 0; t < call.types.size(); t++) {
      busyLeft.put(t, toList(busy.get(t)));
    }
    for (int i = 0; i < cand.size(); i++) {
      if (used[i] == 0) {
        continue;
      }
      int t = (int) cand.get(i)[0];
      if (cand.get(i)[2] == 0) {
        held.merge(t, 1, Integer::sum);
      } else {
        busyLeft.get(t).remove(Long.valueOf(cand.get(i)[3]));
      }
    }
    return new Expected(held, busyLeft);
  }

  private static double finish(long[] c, double[] cost, int used) {
    return c[1] + (used + 1) * cost[0] + cost[1];
  }

  private static List<Long> toList(long[] a) {
    List<Long> out = new ArrayList<>();
    for (long v : a) {
      out.add(v);
    }
    return out;
  }

  private static DispatchCall call(List<Gpu> gpus, TaskTimeModel times, HareTracker tracker,
      FakeJob... jobs) {
    FakeCluster c = new FakeCluster(List.of(jobs), gpus, times);
    Map<GpuType, List<GpuView>> free = new HashMap<>();
    int n = 0;
    for (Gpu g : gpus) {
      if (!g.busy()) {
        free.computeIfAbsent(g.type(), t -> new ArrayList<>()).add(g);
        n++;
      }
    }
    List<GpuType> types = c.gpuTypes();
    return new DispatchCall(c, free, n, NOW, tracker, new TypeSlots[types.size()]);
  }
}
