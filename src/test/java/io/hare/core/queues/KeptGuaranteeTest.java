package io.hare.core.queues;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/**
 * A queue below its guarantee whose jobs the policy does not serve at once (it holds the free
 * GPUs for the queue's job about to end its sync, or keeps them for a faster type) keeps what
 * it lacks from the other queues: the guarantee is not lent out again the moment it comes back.
 */
public class KeptGuaranteeTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");

  private record Gpu(String id, GpuType type) implements GpuView {
    @Override
    public String node() {
      return "n-" + id;
    }

    @Override
    public boolean busy() {
      return false;
    }

    @Override
    public String lastJobId() {
      return null;
    }
  }

  /**
   * A job of {@code queue} with {@code ready} tasks waiting, runnable on {@code types}, fastest
   * on the first of them (ties: none).
   */
  private static TestJob job(String id, String queue, int ready, int running,
      List<GpuType> types) {
    Map<GpuType, Long> ms = new HashMap<>();
    for (GpuType t : types) {
      ms.put(t, t.equals(types.get(0)) ? 1000L : 3000L);
    }
    return new TestJob(id, queue, ready, running, 2, ms);
  }

  private record View(List<TestJob> jobs, List<Gpu> gpus) implements ClusterView {
    @Override
    public JobView job(String id) {
      return jobs.stream().filter(j -> j.id().equals(id)).findFirst().orElse(null);
    }

    @Override
    public List<GpuType> gpuTypes() {
      return List.of(K80, V100);
    }

    @Override
    public int gpuCount(GpuType type) {
      return 2; // two of each type: a fleet of 4
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return (int) gpus.stream().filter(g -> g.type().equals(type)).count();
    }

    @Override
    public TaskTimeModel taskTimes() {
      throw new UnsupportedOperationException("not asked here");
    }
  }

  /** Queues a and b, each guaranteed half of the 4 GPUs and allowed all of them. */
  private static QueueGuarantees halfEach() {
    PolicyConfig c = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.5",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.5"), 0);
    QueueShares q = QueueShares.read(c);
    assertEquals(List.of(), c.problems());
    return new QueueGuarantees(q);
  }

  private static List<Assignment> assign(SchedulingPolicy p, List<TestJob> jobs, List<Gpu> free) {
    return halfEach().assign(p, new View(jobs, free), jobs, free, 0).assignments();
  }

  @Test(timeout = 60_000)
  public void whatAQueueBelowItsGuaranteeLacksIsNotGivenToAQueueAtItsOwn() {
    // a runs 1 of its 2 and waits; b runs its 2 and waits for more; two V100s free
    TestJob a = job("a1", "a", 2, 1, List.of(V100, K80));
    TestJob b = job("b1", "b", 4, 2, List.of(V100, K80));
    List<Gpu> free = List.of(new Gpu("g1", V100), new Gpu("g2", V100));
    assertEquals("a lacks one: b gets one of the two, not both",
        List.of(new Assignment("g1", "b1")),
        assign(new TestPolicy(List.of("b1", "a1"), Set.of("a1")), List.of(a, b), free));
    assertEquals("a served: a takes the one it lacks, then b the rest",
        List.of(new Assignment("g1", "a1"), new Assignment("g2", "b1")),
        assign(new TestPolicy(List.of("b1", "a1"), Set.of()), List.of(a, b), free));
  }

  @Test(timeout = 60_000)
  public void aGpuTheWaitingQueueCannotUseIsNotKeptForIt() {
    TestJob a = job("a1", "a", 2, 0, List.of(V100)); // lacks 2, runs on V100s only
    TestJob b = job("b1", "b", 4, 2, List.of(V100, K80));
    List<Gpu> free = List.of(new Gpu("k1", K80), new Gpu("g1", V100), new Gpu("k2", K80));
    assertEquals("the K80s go to b; the V100, one of the two a lacks, stays free",
        List.of(new Assignment("k1", "b1"), new Assignment("k2", "b1")),
        assign(new TestPolicy(List.of("b1", "a1"), Set.of("a1")), List.of(a, b), free));
  }

  @Test(timeout = 60_000)
  public void aGuaranteeCountsGpusOfAnyTypeTheQueueCanRunOn() {
    TestJob a = job("a1", "a", 2, 0, List.of(V100, K80)); // lacks 2, 3x slower on a K80
    TestJob b = job("b1", "b", 4, 2, List.of(V100, K80));
    List<Gpu> free = List.of(new Gpu("k1", K80), new Gpu("g1", V100), new Gpu("k2", K80));
    assertEquals("b gets one of the three; a keeps two, even a K80 it turned down",
        List.of(new Assignment("k1", "b1")),
        assign(new TestPolicy(List.of("b1", "a1"), Set.of("a1")), List.of(a, b), free));
  }

  @Test(timeout = 60_000)
  public void aQueueWithNothingWaitingKeepsNothing() {
    TestJob a = job("a1", "a", 0, 0, List.of(V100, K80)); // below its guarantee, no demand
    TestJob b = job("b1", "b", 4, 2, List.of(V100, K80));
    List<Gpu> free = List.of(new Gpu("g1", V100), new Gpu("g2", V100));
    assertEquals(List.of(new Assignment("g1", "b1"), new Assignment("g2", "b1")),
        assign(new TestPolicy(List.of("b1", "a1"), Set.of()), List.of(a, b), free));
  }
}
