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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.Test;

/**
 * Per-GPU-type guarantees ({@code guaranteed-gpu-share.<type>}) on 2 V100s and 2 T4s: a queue
 * below its guarantee of a type gets that type's free GPUs first; a queue alone borrows every
 * type and gives them back at its tasks' ends. The cluster here
 * holds its own state, so each test walks task boundaries: a task ends, its GPU is offered.
 */
public class TypeGuaranteesTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType T4 = GpuType.of("t4");

  private static final class Gpu implements GpuView {
    private final String id;
    private final GpuType type;
    private String job;
    private boolean busy;

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
      return job;
    }
  }

  /** A job of {@code queue} with {@code ready} tasks waiting, runnable on both types. */
  private static TestJob job(String id, String queue, int ready) {
    return new TestJob(id, queue, ready, 0, 100, Map.of(V100, 1000L, T4, 2000L));
  }

  /** 2 V100s then 2 T4s, and the jobs in the order given. */
  private static final class Cluster implements ClusterView {
    private final Map<String, TestJob> jobs = new LinkedHashMap<>();
    private final List<Gpu> gpus = List.of(new Gpu("v1", V100), new Gpu("v2", V100),
        new Gpu("t1", T4), new Gpu("t2", T4));
    private final QueueGuarantees gate;
    private Set<String> yielding = Set.of();

    Cluster(QueueGuarantees gate, TestJob... js) {
      this.gate = gate;
      for (TestJob j : js) {
        jobs.put(j.id(), j);
      }
    }

    @Override
    public List<? extends JobView> jobs() {
      return List.copyOf(jobs.values());
    }

    @Override
    public JobView job(String id) {
      return jobs.get(id);
    }

    @Override
    public List<? extends GpuView> gpus() {
      return gpus;
    }

    @Override
    public List<GpuType> gpuTypes() {
      return List.of(T4, V100);
    }

    @Override
    public int gpuCount(GpuType type) {
      return 2;
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return (int) gpus.stream().filter(g -> g.type().equals(type) && !g.busy).count();
    }

    @Override
    public TaskTimeModel taskTimes() {
      throw new UnsupportedOperationException("not asked here");
    }

    /** Offers the free GPUs through the gate and starts what it allows. */
    List<Assignment> offer(SchedulingPolicy p) {
      List<Gpu> free = gpus.stream().filter(g -> !g.busy).toList();
      QueueGuarantees.Decision d = gate.assign(p, this, List.copyOf(jobs.values()), free, 0);
      for (Assignment a : d.assignments()) {
        Gpu g = gpu(a.gpuId());
        TestJob j = jobs.get(a.jobId());
        g.busy = true;
        g.job = j.id();
        j.ready--;
        j.running++;
      }
      yielding = d.yielding();
      return d.assignments();
    }

    /** The task on {@code gpuId} ends; its job has one more task waiting (the next round's). */
    void end(String gpuId) {
      Gpu g = gpu(gpuId);
      TestJob j = jobs.get(g.job);
      g.busy = false;
      j.running--;
      j.ready++;
    }

    void add(TestJob j) {
      jobs.put(j.id(), j);
    }

    private Gpu gpu(String id) {
      return gpus.stream().filter(g -> g.id.equals(id)).findFirst().orElseThrow();
    }

    /** Per queue, the GPUs it holds, by type. */
    Map<String, Map<String, Integer>> held() {
      Map<String, Map<String, Integer>> out = new TreeMap<>();
      for (Gpu g : gpus) {
        if (g.busy) {
          out.computeIfAbsent(jobs.get(g.job).queue(), q -> new TreeMap<>())
              .merge(g.type.name(), 1, Integer::sum);
        }
      }
      return out;
    }
  }

  private static QueueGuarantees gate(String... keyValues) {
    Map<String, String> m = new HashMap<>();
    m.put("yarn.scheduler.hare.queues", "a,b");
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put("yarn.scheduler.hare.queue." + keyValues[i], keyValues[i + 1]);
    }
    PolicyConfig c = new PolicyConfig(m, 0);
    QueueShares q = QueueShares.read(c);
    assertEquals(List.of(), c.problems());
    return new QueueGuarantees(q);
  }

  /** a is guaranteed every V100, b every T4. */
  private static QueueGuarantees v100ToAT4ToB() {
    return gate("a.guaranteed-gpu-share.v100", "1", "b.guaranteed-gpu-share.t4", "1");
  }

  private static Map<String, Map<String, Integer>> holds(String q1, int v1, int t1, String q2,
      int v2, int t2) {
    Map<String, Map<String, Integer>> out = new TreeMap<>();
    put(out, q1, v1, t1);
    put(out, q2, v2, t2);
    return out;
  }

  private static void put(Map<String, Map<String, Integer>> out, String q, int v, int t) {
    Map<String, Integer> m = new TreeMap<>();
    if (v > 0) {
      m.put("v100", v);
    }
    if (t > 0) {
      m.put("t4", t);
    }
    if (!m.isEmpty()) {
      out.put(q, m);
    }
  }

  @Test(timeout = 60_000)
  public void bothSaturatedEachGetsItsTypeAtEveryTaskBoundary() {
    Cluster c = new Cluster(v100ToAT4ToB(), job("a1", "a", 100), job("b1", "b", 100));
    // the policy ranks b first, then a first: each queue still gets exactly its own type
    for (TestPolicy p : List.of(new TestPolicy("b1", "a1"), new TestPolicy("a1", "b1"))) {
      c.offer(p);
      assertEquals(holds("a", 2, 0, "b", 0, 2), c.held());
      for (String gpu : List.of("v1", "t1", "v2", "t2", "t1", "v1")) {
        c.end(gpu);
        assertEquals("after the task on " + gpu + " ended", 1, c.offer(p).size());
        assertEquals("after the task on " + gpu + " ended", holds("a", 2, 0, "b", 0, 2),
            c.held());
      }
      List.of("v1", "v2", "t1", "t2").forEach(c::end);
    }
  }

  @Test(timeout = 60_000)
  public void aQueueAloneBorrowsBothTypesAndGivesThemBackAtItsTasksEnds() {
    Cluster c = new Cluster(v100ToAT4ToB(), job("a1", "a", 100));
    TestPolicy p = new TestPolicy("a1", "b1"); // the policy would keep serving a
    c.offer(p);
    assertEquals("a borrows b's T4s", holds("a", 2, 2, "b", 0, 0), c.held());
    c.add(job("b1", "b", 100));
    assertEquals(List.of(), c.offer(p));
    assertEquals("a holds b's T4s while b waits: a yields", Set.of("a"), c.yielding);
    c.end("t1");
    assertEquals(List.of(new Assignment("t1", "b1")), c.offer(p));
    c.end("v1");
    assertEquals("a's own V100 goes back to a", List.of(new Assignment("v1", "a1")),
        c.offer(p));
    c.end("t2");
    assertEquals(List.of(new Assignment("t2", "b1")), c.offer(p));
    assertEquals(holds("a", 2, 0, "b", 0, 2), c.held());
    assertEquals("each at its guarantee: nobody yields", Set.of(), c.yielding);
  }

  @Test(timeout = 60_000)
  public void aTypeTheQueueDeclinesIsLentAndComesBackFirstAtTheNextBoundary() {
    Cluster c = new Cluster(v100ToAT4ToB(), job("a1", "a", 100), job("b1", "b", 100));
    // the policy declines a's job (holds the GPUs for it, or waits for a faster type): unlike a
    // fleet guarantee (KeptGuaranteeTest) the V100s a lacks are not kept idle for it, b borrows
    c.offer(new TestPolicy(List.of("b1", "a1"), Set.of("a1")));
    assertEquals(holds("a", 0, 0, "b", 2, 2), c.held());
    c.end("v1");
    c.offer(new TestPolicy("b1", "a1"));
    assertEquals("the V100 that frees goes to a first", holds("a", 1, 0, "b", 1, 2), c.held());
  }

  @Test(timeout = 60_000)
  public void aQueueWithoutDemandLendsItsTypeAndAMaximumCapsWhatItLacks() {
    Cluster c = new Cluster(gate("a.guaranteed-gpu-share.v100", "1",
        "a.maximum-gpu-share", "0.25", "b.guaranteed-gpu-share.t4", "1"),
        job("a1", "a", 0), job("b1", "b", 100));
    c.offer(new TestPolicy("a1", "b1"));
    assertEquals("a waits for nothing: b borrows its V100s",
        holds("a", 0, 0, "b", 2, 2), c.held());
    c.jobs.get("a1").ready = 5;
    c.end("v1");
    c.end("v2");
    c.offer(new TestPolicy("b1", "a1"));
    assertEquals("a's maximum (1 of 4 GPUs) caps its V100s", holds("a", 1, 0, "b", 1, 2),
        c.held());
  }

  @Test(timeout = 60_000)
  public void aTypeTheClusterLacksGuaranteesNothing() {
    Cluster c = new Cluster(gate("a.guaranteed-gpu-share.a100", "1"),
        job("a1", "a", 100), job("b1", "b", 100));
    c.offer(new TestPolicy("b1", "a1"));
    assertEquals("no A100 here: a is guaranteed nothing and the policy's order decides",
        holds("a", 0, 0, "b", 2, 2), c.held());
  }
}
