package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.profile.ProfileTable;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.FakeJob;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The YARN order of a failed task, for every registered policy: the container fails (the GPU
 * frees, {@code onTaskFailed}, but nothing is ready: the application has not asked again yet),
 * later the application asks again ({@code onTasksReady}, no GPU changes). The policy must
 * place nothing while nothing is ready and place the re-asked task at the next offer.
 *
 * <p>Two free v100 GPUs, one job a of k = 2 and R = 2 on model cnn (100 ms compute).
 */
@RunWith(Parameterized.class)
public class TasksReadyContractTest {

  @Parameters(name = "{0}")
  public static List<Object[]> policies() {
    return Policies.names().stream().map(n -> new Object[] {n}).collect(Collectors.toList());
  }

  private final String name;

  public TasksReadyContractTest(String name) {
    this.name = name;
  }

  @Test(timeout = 60_000)
  public void aTaskAskedAgainAfterItsFailureIsPlacedAtTheNextOffer() throws Exception {
    Host h = new Host(Policies.create(name, new PolicyConfig(Map.of(), 1)));
    h.job.ready = 2;
    h.policy.onJobArrived(h.job, 0);
    List<Assignment> first = h.offer(0);
    assertEquals(name + ": the first round takes both GPUs", 2, first.size());

    h.computed(h.gpus.get(0), 100);
    h.failed(h.gpus.get(1), 100);
    assertEquals(name + ": nothing is ready, nothing placed", List.of(), h.offer(100));

    h.job.ready = 1; // the application asks for the failed task again
    h.policy.onTasksReady(h.job, 150);
    List<Assignment> retry = h.offer(150);
    assertEquals(name + ": the re-asked task is placed at once", 1, retry.size());
    assertEquals("a", retry.get(0).jobId());
    assertTrue(retry.get(0).gpuId().startsWith("g"));
  }

  /** A minimal host: applies assignments and keeps the views in step. */
  private static final class Host implements ClusterView {
    final SchedulingPolicy policy;
    final TaskTimeModel times = ProfileTable.builder().put("cnn", "v100", 100, 10).build();
    final FakeJob job = new FakeJob("a", "cnn", 2, OptionalInt.of(2), times);
    final List<Gpu> gpus = List.of(new Gpu("g0"), new Gpu("g1"));

    Host(SchedulingPolicy policy) {
      this.policy = policy;
    }

    List<Assignment> offer(long now) {
      if (policy.replanDue(now)) {
        policy.replan(this, now);
      }
      List<Gpu> free = gpus.stream().filter(g -> !g.busy).collect(Collectors.toList());
      List<Assignment> out = policy.assign(this, free, now);
      for (Assignment a : out) {
        Gpu g = gpus.stream().filter(x -> x.id.equals(a.gpuId())).findFirst().orElseThrow();
        assertTrue(name(a) + " on a busy GPU", !g.busy);
        assertTrue(name(a) + " without a ready task", job.ready > 0);
        g.busy = true;
        g.last = a.jobId();
        job.ready--;
        job.running++;
        policy.onTaskStarted(job, g, now);
      }
      return out;
    }

    private String name(Assignment a) {
      return policy.name() + ": " + a;
    }

    void computed(Gpu g, long now) {
      g.busy = false;
      job.running--;
      job.done++;
      policy.onTaskComputed(job, g, now, 100);
    }

    void failed(Gpu g, long now) {
      g.busy = false;
      job.running--;
      policy.onTaskFailed(job, g, now);
    }

    @Override
    public List<? extends JobView> jobs() {
      return List.of(job);
    }

    @Override
    public JobView job(String id) {
      return id.equals(job.id()) ? job : null;
    }

    @Override
    public List<? extends GpuView> gpus() {
      return gpus;
    }

    @Override
    public List<GpuType> gpuTypes() {
      return List.of(GpuType.of("v100"));
    }

    @Override
    public int gpuCount(GpuType type) {
      return type.name().equals("v100") ? gpus.size() : 0;
    }

    @Override
    public int freeGpuCount(GpuType type) {
      return type.name().equals("v100") ? (int) gpus.stream().filter(g -> !g.busy).count() : 0;
    }

    @Override
    public TaskTimeModel taskTimes() {
      return times;
    }
  }

  private static final class Gpu implements GpuView {
    final String id;
    boolean busy;
    String last;

    Gpu(String id) {
      this.id = id;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public GpuType type() {
      return GpuType.of("v100");
    }

    @Override
    public String node() {
      return "n0";
    }

    @Override
    public boolean busy() {
      return busy;
    }

    @Override
    public String lastJobId() {
      return last;
    }
  }
}
