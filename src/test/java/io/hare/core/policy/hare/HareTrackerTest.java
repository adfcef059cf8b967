package io.hare.core.policy.hare;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeJob;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.Test;

/**
 * The snapshot's GPU arrays, which the tracker keeps while the cluster's GPUs stay, are those of
 * the GPUs of the moment: after tasks start and end on the same list, and after the list changes.
 */
public class HareTrackerTest {

  private static final List<GpuType> TYPES = List.of(GpuType.of("a"), GpuType.of("b"),
      GpuType.of("c"));
  private static final TaskTimeModel TIMES = ProfileTable.builder()
      .put("m", "a", 100, 10).put("m", "b", 250, 10).put("m", "c", 700, 10).build();

  /** A GPU whose busy flag the test sets. */
  private static final class Gpu implements GpuView {
    private final String id;
    private final GpuType type;
    boolean busy;

    Gpu(String id, GpuType type) {
      this.id = id;
      this.type = type;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public GpuType type() {
      return type;
    }

    @Override
    public String node() {
      return "n-" + id;
    }

    @Override
    public boolean busy() {
      return busy;
    }

    @Override
    public String lastJobId() {
      return null;
    }
  }

  /** A view whose GPU list and version the test replaces. */
  private static final class View implements ClusterView {
    List<Gpu> gpus = List.of();
    long version;
    final List<FakeJob> jobs = new ArrayList<>();

    @Override
    public List<? extends JobView> jobs() {
      return jobs;
    }

    @Override
    public JobView job(String id) {
      return jobs.stream().filter(j -> j.id().equals(id)).findFirst().orElse(null);
    }

    @Override
    public List<? extends GpuView> gpus() {
      return gpus;
    }

    @Override
    public long gpusVersion() {
      return version;
    }

    @Override
    public List<GpuType> gpuTypes() {
      return gpus.stream().map(GpuView::type).distinct().sorted().toList();
    }

    @Override
    public int gpuCount(GpuType type) {
      return (int) gpus.stream().filter(g -> g.type().equals(type)).count();
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return (int) gpus.stream().filter(g -> g.type().equals(type) && !g.busy()).count();
    }

    @Override
    public TaskTimeModel taskTimes() {
      return TIMES;
    }
  }

  @Test(timeout = 60_000)
  public void snapshotGpuArraysFollowTheGpusAndTheirTasks() {
    Random r = new Random(9);
    HareTracker tracker = new HareTracker();
    View view = new View();
    FakeJob job = new FakeJob("j", "m", 2, OptionalInt.of(3), TIMES);
    job.ready = 1;
    view.jobs.add(job);
    Map<String, Long> endMs = new HashMap<>(); // expected compute end of each started task
    long now = 0;
    for (int step = 0; step < 400; step++) {
      now += r.nextInt(300);
      if (step % 10 == 0) {
        // a new list of GPUs, mostly of the same length and types as the last: ids and types
        // drawn again (one of type a at least)
        List<Integer> idPool = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          idPool.add(i);
        }
        Collections.shuffle(idPool, r);
        List<Gpu> gpus = new ArrayList<>();
        int n = 4 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          gpus.add(new Gpu("g" + idPool.get(i), TYPES.get(i == 0 ? 0 : r.nextInt(3))));
        }
        view.gpus = gpus;
        view.version++;
      }
      Gpu g = view.gpus.get(r.nextInt(view.gpus.size()));
      if (!g.busy && r.nextBoolean()) {
        tracker.started(job, g, now);
        g.busy = true;
        endMs.put(g.id(), now + Math.round(TIMES.times("m", g.type()).computeMs()));
      } else if (g.busy) {
        if (r.nextBoolean()) {
          tracker.computed(job, g, now);
        } else {
          tracker.failed(g);
        }
        g.busy = false;
        endMs.remove(g.id());
      }
      PlanningProblem p = tracker.snapshot(view, now);
      List<GpuType> types = view.gpuTypes();
      int[] type = new int[view.gpus.size()];
      String[] ids = new String[type.length];
      long[] free = new long[type.length];
      for (int i = 0; i < type.length; i++) {
        Gpu x = view.gpus.get(i);
        type[i] = types.indexOf(x.type());
        ids[i] = x.id();
        Long end = endMs.get(x.id());
        free[i] = end == null || !x.busy() ? now : Math.max(now + 1, end);
      }
      assertArrayEquals("step " + step, type, p.gpuType());
      assertArrayEquals("step " + step, ids, p.gpuIds());
      assertArrayEquals("step " + step, free, p.gpuFreeMs());
    }
  }

  /**
   * With the correction exact plans use, a round's expected end is its tasks' estimates while
   * any computes, and what happened once the last one has: a round that ran faster than
   * estimated is ready early in the snapshot. Without it the estimate stays.
   */
  /**
   * A task is late once it runs a share of its compute time past its expected end (one left on
   * a node that fell silent may never be heard to end), and no longer once it computed.
   */
  @Test(timeout = 60_000)
  public void aTaskIsLateASharePastItsExpectedEnd() {
    HareTracker tracker = new HareTracker(true);
    Gpu a0 = new Gpu("a0", TYPES.get(0));
    FakeJob job = new FakeJob("j", "m", 1, OptionalInt.of(3), TIMES);
    assertEquals(Long.MAX_VALUE, tracker.nextLateMs(0.1));
    tracker.started(job, a0, 0); // estimated to compute by 100
    assertEquals(110, tracker.nextLateMs(0.1));
    assertFalse(tracker.late(109, 0.1));
    assertTrue(tracker.late(110, 0.1));
    tracker.computed(job, a0, 500);
    assertFalse(tracker.late(500, 0.1));
    assertEquals(Long.MAX_VALUE, tracker.nextLateMs(0.1));
  }

  @Test(timeout = 60_000)
  public void aRoundThatComputedEarlyIsExpectedToEndEarly() {
    assertEquals(310, roundEndAfterAnEarlyRound(true));
    assertEquals(710, roundEndAfterAnEarlyRound(false));
  }

  private static long roundEndAfterAnEarlyRound(boolean correct) {
    HareTracker tracker = new HareTracker(correct);
    View view = new View();
    Gpu a0 = new Gpu("a0", TYPES.get(0));
    Gpu c0 = new Gpu("c0", TYPES.get(2));
    view.gpus = List.of(a0, c0);
    FakeJob job = new FakeJob("j", "m", 2, OptionalInt.of(3), TIMES);
    view.jobs.add(job);
    tracker.started(job, a0, 0); // estimated to compute by 100, synced by 110
    tracker.started(job, c0, 0); // by 700, synced by 710
    a0.busy = true;
    c0.busy = true;
    tracker.computed(job, a0, 40);
    a0.busy = false;
    job.running = 1;
    assertEquals("c0's estimate still holds", 710, tracker.snapshot(view, 40).jobs().get(0)
        .releaseMs());
    tracker.computed(job, c0, 300); // synced by 310
    c0.busy = false;
    job.running = 0;
    long release = tracker.snapshot(view, 300).jobs().get(0).releaseMs();
    assertEquals(release, tracker.nextRoundAtMs(job));
    return release;
  }
}
