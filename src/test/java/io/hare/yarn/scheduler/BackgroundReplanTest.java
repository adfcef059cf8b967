package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.Test;

/**
 * Re-plans off the heartbeat path ({@link PolicyHost}, {@link PolicyGate}, {@link Replanner}):
 * a pass never waits for a solve, callbacks that arrive meanwhile reach the policy in order after
 * it, never concurrently with it, and the finished plan is used at the next pass.
 */
public class BackgroundReplanTest {

  private final GpuInventory inventory = new GpuInventory();
  private final TaskTimeSource times = new TaskTimeSource(ProfileTable.builder().build(), 100,
      1, 10);

  private YarnJob job(int n) {
    ApplicationId id = ApplicationId.newInstance(1, n);
    times.addJob(id.toString(), null);
    return new YarnJob(id, n, 1, JobTags.Info.NONE, false, times);
  }

  @Test(timeout = 60_000)
  public void aPassDuringASolveReturnsAtOnceAndCallbacksWaitForIt() throws Exception {
    Scripted policy = new Scripted();
    ExecutorService background = Replanner.newThread();
    List<Long> durations = Collections.synchronizedList(new ArrayList<>());
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, background, durations::add);
    inventory.setNode(NodeId.newInstance("h1", 1), 2, GpuType.of("v100"));
    YarnJob a = job(1);
    host.asksChanged(a, 1, 0);
    assertEquals("no solve running: the arrival is delivered at once", List.of("arrived 1"),
        policy.events());

    policy.replanDue = true;
    assertEquals("the pass that starts the solve places nothing", List.of(), host.pass(10));
    assertTrue("the solve runs on the background thread", policy.solving.await(5,
        TimeUnit.SECONDS));
    // the heartbeat thread goes on while the solve is blocked
    host.asksChanged(a, 2, 20); // the AM asked once more: onTasksReady waits for the solve
    assertTrue(host.passDue(20));
    assertEquals("a pass during the solve places nothing", List.of(), host.pass(20));
    assertEquals(List.of("arrived 1", "replan 1"), policy.events());

    policy.release.countDown();
    background.shutdown();
    assertTrue(background.awaitTermination(5, TimeUnit.SECONDS));
    assertTrue("the finished plan makes the next heartbeat pass", host.passDue(30));
    List<Assignment> placed = host.pass(30);
    assertEquals("both free GPUs to the 2 ready tasks", 2, placed.size());
    assertEquals(List.of("arrived 1", "replan 1", "ready 2", "assign 2"), policy.events());
    assertEquals(0, policy.overlaps.get());
    assertNotEquals(Thread.currentThread().getName(), policy.replanThread);
    assertEquals("hare-replan", policy.replanThread);
    assertEquals(1, host.replans());
    assertEquals(1, durations.size());
  }

  @Test(timeout = 60_000)
  public void aSameThreadExecutorReplansBeforeTheAssignOfTheSamePass() throws Exception {
    Scripted policy = new Scripted();
    PolicyHost host = sameThreadOnOneGpu(policy, 0);
    YarnJob a = job(1);
    host.asksChanged(a, 1, 0);
    policy.replanDue = true;
    assertEquals(1, host.pass(10).size());
    assertEquals(List.of("arrived 1", "replan 1", "assign 1"), policy.events());
  }

  /**
   * A task that ends while a solve runs refines the job's estimates only once the policy is told
   * of it, after the solve: the solve reads the same estimate throughout, the one of the
   * callbacks it was given, as the simulator's replay of the run does (a close call between two
   * jobs must not turn on when the solving thread happened to read).
   */
  @Test(timeout = 60_000)
  public void aTaskEndingDuringASolveRefinesTheEstimatesAfterIt() throws Exception {
    Scripted policy = new Scripted();
    ExecutorService background = Replanner.newThread();
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, background, n -> { });
    inventory.setNode(NodeId.newInstance("h1", 1), 1, GpuType.of("v100"));
    YarnJob a = job(1);
    host.asksChanged(a, 2, 0);
    List<Assignment> placed = host.pass(0); // no re-plan due: one task on the one GPU
    assertEquals(1, placed.size());
    YarnGpu gpu = inventory.gpu(placed.get(0).gpuId());
    host.taskStarted(a, gpu, 0);
    double before = a.times(GpuType.of("v100")).computeMs();

    policy.replanDue = true;
    policy.readEstimates = true;
    assertEquals(List.of(), host.pass(10));
    assertTrue(policy.solving.await(5, TimeUnit.SECONDS));
    host.taskEnded(a, gpu, 900, true, 900, true); // measured 900 ms against a prior of 100
    policy.release.countDown();
    background.shutdown();
    assertTrue(background.awaitTermination(5, TimeUnit.SECONDS));
    assertEquals("what the solve read before and after the task ended", List.of(before, before),
        policy.estimates());
    host.pass(1000);
    assertTrue("the policy told of the task, the estimate learnt it",
        a.times(GpuType.of("v100")).computeMs() > before);
  }

  /**
   * A re-plan the least interval held back runs at the first heartbeat after the interval, not
   * at whatever event comes next: nothing else changes here, and without the held pass the
   * arrival would run by the stand-in order until then.
   */
  @Test(timeout = 60_000)
  public void aReplanHeldBackByTheIntervalRunsOnceItHasPassed() throws Exception {
    Scripted policy = new Scripted();
    PolicyHost host = sameThreadOnOneGpu(policy, 200);
    host.asksChanged(job(1), 1, 0);
    policy.replanDue = true;
    assertEquals(1, host.pass(10).size());
    host.asksChanged(job(2), 1, 50); // arrives 40 ms after the re-plan, the GPU busy
    policy.replanDue = true;
    assertTrue(host.passDue(50));
    host.pass(50);
    assertEquals("held back by the 200 ms interval", 1, host.replans());
    assertTrue("nothing due before the interval ends", !host.passDue(150));
    assertTrue("a pass is due once it has", host.passDue(210));
    host.pass(210);
    assertEquals(2, host.replans());
    assertTrue("and nothing after it", !host.passDue(400));
  }

  /**
   * A host re-planning on the calling thread, at least {@code intervalMs} apart, over one V100;
   * {@code policy}'s re-plans do not block.
   */
  private PolicyHost sameThreadOnOneGpu(Scripted policy, long intervalMs) {
    policy.release.countDown();
    PolicyHost host = new PolicyHost(policy, inventory, times, intervalMs, 0, Runnable::run,
        n -> { });
    inventory.setNode(NodeId.newInstance("h1", 1), 1, GpuType.of("v100"));
    return host;
  }

  /**
   * Records calls, detects overlapping ones, blocks its re-plan until released, and gives every
   * free GPU to the first job with ready tasks.
   */
  private static final class Scripted implements SchedulingPolicy {
    final CountDownLatch solving = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    private final List<String> events = new ArrayList<>();
    volatile boolean replanDue;
    volatile String replanThread;
    /** Whether a re-plan reads the first job's V100 estimate as it starts and once released. */
    volatile boolean readEstimates;
    private final List<Double> estimates = new ArrayList<>();

    synchronized List<Double> estimates() {
      return List.copyOf(estimates);
    }

    private void readEstimate(ClusterView cluster) {
      if (readEstimates) {
        double ms = cluster.jobs().get(0).times(GpuType.of("v100")).computeMs();
        synchronized (this) {
          estimates.add(ms);
        }
      }
    }

    synchronized List<String> events() {
      return List.copyOf(events);
    }

    private void record(String e) {
      if (inside.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      synchronized (this) {
        events.add(e);
      }
      inside.decrementAndGet();
    }

    @Override
    public String name() {
      return "scripted";
    }

    @Override
    public boolean clairvoyant() {
      return false;
    }

    @Override
    public void onJobArrived(JobView job, long nowMs) {
      record("arrived " + job.readyTasks());
    }

    @Override
    public void onTasksReady(JobView job, long nowMs) {
      record("ready " + job.readyTasks());
    }

    @Override
    public boolean replanDue(long nowMs) {
      return replanDue;
    }

    @Override
    public void replan(ClusterView cluster, long nowMs) {
      if (inside.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      replanThread = Thread.currentThread().getName();
      replanDue = false;
      synchronized (this) {
        events.add("replan " + cluster.jobs().get(0).readyTasks());
      }
      readEstimate(cluster);
      solving.countDown();
      try {
        release.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      readEstimate(cluster);
      inside.decrementAndGet();
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      JobView j = cluster.jobs().get(0);
      record("assign " + j.readyTasks());
      List<Assignment> out = new ArrayList<>();
      for (int i = 0; i < Math.min(j.readyTasks(), freeGpus.size()); i++) {
        out.add(new Assignment(freeGpus.get(i).id(), j.id()));
      }
      return out;
    }
  }
}
