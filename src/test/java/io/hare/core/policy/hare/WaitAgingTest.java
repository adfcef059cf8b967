package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeJob;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.Test;

/** The starvation guard's clock: when a job becomes overdue, and what restarts or stops it. */
public class WaitAgingTest {

  private static final TaskTimeModel TIMES = ProfileTable.builder().put("m", "v100", 10, 0)
      .put("long", "v100", 900, 100).put("long", "k80", 2000, 100).build();

  private final FakeJob a = job("a");
  private final FakeJob b = job("b");
  private final ClusterView cluster = new Jobs(Map.of("a", a, "b", b));

  private static FakeJob job(String id) {
    FakeJob j = new FakeJob(id, "m", 2, OptionalInt.of(5), TIMES);
    j.ready = 2;
    return j;
  }

  private static List<String> ids(List<JobView> jobs) {
    return jobs.stream().map(JobView::id).toList();
  }

  @Test(timeout = 60_000)
  public void overdueAfterMaxWaitOldestFirstAndATaskStartRestartsTheClock() {
    WaitAging w = new WaitAging(100);
    w.ready(b, 10);
    w.ready(a, 20);
    w.ready(a, 50); // already waiting: keeps its start
    assertEquals(List.of(), ids(w.overdue(cluster, 109)));
    assertEquals(List.of("b"), ids(w.overdue(cluster, 110)));
    assertEquals(OptionalLong.of(120), w.nextDueMs());
    assertEquals(List.of("b", "a"), ids(w.overdue(cluster, 500)));
    b.ready = 1;
    w.started(b, 500); // one task started, one still ready: waits afresh
    assertEquals(List.of("a"), ids(w.overdue(cluster, 599)));
    assertEquals(OptionalLong.of(600), w.nextDueMs());
    b.ready = 0;
    w.started(b, 600); // its last ready task started: no clock
    assertEquals(List.of("a"), ids(w.overdue(cluster, 10_000)));
    assertEquals(OptionalLong.empty(), w.nextDueMs());
  }

  @Test(timeout = 60_000)
  public void jobsWithoutReadyTasksOrGoneAreNeverOverdue() {
    WaitAging w = new WaitAging(100);
    w.ready(a, 0);
    w.ready(b, 0);
    a.ready = 0; // the host withdrew its tasks without a callback
    assertEquals(List.of("b"), ids(w.overdue(cluster, 1_000)));
    w.remove("b"); // done
    assertEquals(List.of(), ids(w.overdue(cluster, 2_000)));
    FakeJob idle = job("c");
    idle.ready = 0;
    w.ready(idle, 0);
    assertEquals(OptionalLong.empty(), w.nextDueMs());
  }

  @Test(timeout = 60_000)
  public void aJobAQueueGateLeavesOutOfACallStaysOverdue() {
    boolean[] out = {false};
    FakeJob c = new FakeJob("c", "m", 2, OptionalInt.of(5), TIMES) {
      @Override
      public int readyTasks() {
        return out[0] ? 0 : ready; // the gate hides its ready tasks while it leaves it out
      }

      @Override
      public boolean leftOut() {
        return out[0];
      }
    };
    c.ready = 2;
    WaitAging w = new WaitAging(100);
    w.ready(c, 0);
    ClusterView view = new Jobs(Map.of("c", c));
    out[0] = true;
    assertEquals("not served in an offer to another queue", List.of(),
        ids(w.overdue(view, 500)));
    out[0] = false;
    assertEquals("overdue since 100, not waiting afresh", List.of("c"),
        ids(w.overdue(view, 501)));
  }

  @Test(timeout = 60_000)
  public void zeroTurnsItOff() {
    WaitAging w = new WaitAging(0);
    w.ready(a, 0);
    assertEquals(List.of(), ids(w.overdue(cluster, Long.MAX_VALUE / 2)));
    assertEquals(OptionalLong.empty(), w.nextDueMs());
  }

  @Test(timeout = 60_000)
  public void relativeToSizeAJobWaitsAShareOfItsCriticalPath() {
    WaitAging w = new WaitAging(1_000_000, 2);
    FakeJob big = new FakeJob("big", "long", 1, OptionalInt.of(5), TIMES);
    big.ready = 1;
    FakeJob unknown = new FakeJob("unknown", "m", 1, OptionalInt.empty(), TIMES);
    unknown.ready = 1;
    ClusterView c = new Jobs(Map.of("a", a, "big", big, "unknown", unknown),
        List.of(GpuType.of("v100"), GpuType.of("k80")));
    // before the types are known every job gets max-wait-ms; when they are, a (5 rounds of
    // 10 ms) may wait 2 x 50 ms from when it got ready, big (5 rounds of 900 + 100 ms on its
    // fastest type) 2 x 5 s, and a job of unknown size keeps max-wait-ms
    w.ready(a, 0);
    assertEquals(OptionalLong.of(1_000_000), w.nextDueMs());
    w.types(c);
    w.ready(big, 0);
    w.ready(unknown, 0);
    assertEquals(List.of(), ids(w.overdue(c, 99)));
    assertEquals(List.of("a"), ids(w.overdue(c, 100)));
    assertEquals(OptionalLong.of(10_000), w.nextDueMs());
    assertEquals(List.of("a", "big"), ids(w.overdue(c, 10_000)));
    assertEquals(List.of("a", "big", "unknown"), ids(w.overdue(c, 1_000_000)));
    // a task start restarts a's clock with its own limit
    a.ready = 1;
    w.started(a, 2_000_000);
    assertEquals(List.of("big", "unknown"), ids(w.overdue(c, 2_000_099)));
    assertEquals(List.of("big", "unknown", "a"), ids(w.overdue(c, 2_000_100)));
  }

  /** Only the jobs (and the types, where given); the guard reads nothing else of the cluster. */
  private record Jobs(Map<String, FakeJob> byId, List<GpuType> types) implements ClusterView {

    Jobs(Map<String, FakeJob> byId) {
      this(byId, List.of());
    }

    @Override
    public List<? extends JobView> jobs() {
      return List.copyOf(byId.values());
    }

    @Override
    public JobView job(String id) {
      return byId.get(id);
    }

    @Override
    public List<? extends GpuView> gpus() {
      return List.of();
    }

    @Override
    public List<GpuType> gpuTypes() {
      return types;
    }

    @Override
    public int gpuCount(GpuType type) {
      return 0;
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return 0;
    }

    @Override
    public TaskTimeModel taskTimes() {
      return TIMES;
    }
  }
}
