package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.Replan;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.Test;

/**
 * A policy that splits its re-plan ({@link SchedulingPolicy#startReplan}) keeps deciding while
 * the solve runs on the background thread: the pass that took the snapshot and every pass during
 * the solve assign by the previous plan, callbacks reach the policy at once, and the first pass
 * after the solve installs the plan before it assigns.
 */
public class SplitReplanTest {

  private final GpuInventory inventory = new GpuInventory();
  private final TaskTimeSource times = new TaskTimeSource(ProfileTable.builder().build(), 100,
      1, 10);

  private YarnJob job(int n) {
    ApplicationId id = ApplicationId.newInstance(1, n);
    times.addJob(id.toString(), null);
    return new YarnJob(id, n, 1, JobTags.Info.NONE, false, times);
  }

  @Test(timeout = 60_000)
  public void passesAssignByThePreviousPlanUntilTheSolvedOneIsInstalled() throws Exception {
    Splitting policy = new Splitting();
    ExecutorService background = Replanner.newThread();
    List<String> timed = new ArrayList<>();
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, background,
        new ReplanListener() {
          @Override
          public void replanned(long nanos) {
            synchronized (timed) {
              timed.add("solve on " + Thread.currentThread().getName());
            }
          }

          @Override
          public void snapshotTaken(long nanos) {
            synchronized (timed) {
              timed.add("snapshot on " + Thread.currentThread().getName());
            }
          }
        });
    inventory.setNode(NodeId.newInstance("h1", 1), 4, GpuType.of("v100"));
    YarnJob a = job(1);
    host.asksChanged(a, 1, 0);

    policy.replanDue = true;
    assertEquals("the pass that takes the snapshot still places, by plan 0", 1,
        host.pass(10).size());
    assertTrue(host.replanStarted());
    assertFalse(host.planInstalled());
    assertTrue("the solve runs on the background thread",
        policy.solving.await(5, TimeUnit.SECONDS));
    host.taskStarted(a, inventory.gpu(policy.lastAssigned), 10);
    host.asksChanged(a, 1, 20); // the AM asked once more: told at once, not after the solve
    assertTrue(host.passDue(20));
    assertEquals("a pass during the solve places by plan 0", 1, host.pass(20).size());
    assertFalse("no second re-plan while one solves", host.replanStarted());

    policy.release.countDown();
    background.shutdown();
    assertTrue(background.awaitTermination(5, TimeUnit.SECONDS));
    assertTrue("the solved plan makes the next heartbeat pass", host.passDue(30));
    host.pass(30);
    assertTrue(host.planInstalled());
    assertEquals(List.of("arrived 1", "snapshot 1 at 10", "assign by plan 0 at 10",
        "started", "ready 1", "assign by plan 0 at 20", "install at 30"),
        policy.events().subList(0, 7));
    assertEquals("the snapshot was taken on the heartbeat thread, the solve elsewhere",
        "hare-replan", policy.solveThread);
    assertEquals(1, host.replans());
    synchronized (timed) {
      assertEquals(List.of("snapshot on " + Thread.currentThread().getName(),
          "solve on hare-replan"), timed);
    }
  }

  @Test(timeout = 60_000)
  public void aSameThreadExecutorInstallsInThePassThatStartedIt() {
    Splitting policy = new Splitting();
    policy.release.countDown();
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, Runnable::run, n -> { });
    inventory.setNode(NodeId.newInstance("h1", 1), 1, GpuType.of("v100"));
    host.asksChanged(job(1), 1, 0);
    policy.replanDue = true;

    assertEquals(1, host.pass(10).size());
    assertTrue(host.replanStarted());
    assertTrue(host.planInstalled());
    assertEquals(List.of("arrived 1", "snapshot 1 at 10", "install at 10",
        "assign by plan 1 at 10"), policy.events());
  }

  @Test(timeout = 60_000)
  public void aFailedSolveKeepsThePreviousPlanAndALaterReplanRuns() throws Exception {
    Splitting policy = new Splitting();
    policy.release.countDown();
    policy.failSolve = true;
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, Runnable::run, n -> { });
    inventory.setNode(NodeId.newInstance("h1", 1), 2, GpuType.of("v100"));
    YarnJob a = job(1);
    host.asksChanged(a, 1, 0);
    policy.replanDue = true;
    assertEquals(1, host.pass(10).size());
    assertFalse(host.planInstalled());

    policy.failSolve = false;
    policy.replanDue = true;
    host.asksChanged(a, 2, 20);
    host.pass(20);
    assertTrue(host.planInstalled());
    assertEquals("the second solve's plan, counted after the failed one", "install at 20",
        policy.events().get(policy.events().size() - 2));
  }

  @Test(timeout = 60_000)
  public void aSnapshotThatThrowsKeepsThePreviousPlanAndThePassPlaces() {
    Splitting policy = new Splitting();
    policy.release.countDown();
    policy.failSnapshot = true;
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, Runnable::run, n -> { });
    inventory.setNode(NodeId.newInstance("h1", 1), 1, GpuType.of("v100"));
    host.asksChanged(job(1), 1, 0);
    policy.replanDue = true;

    assertEquals("the heartbeat keeps its pass", 1, host.pass(10).size());
    assertEquals(List.of("arrived 1", "assign by plan 0 at 10"), policy.events());
    assertFalse("no second try at every pass: the next re-plan waits until one is due",
        host.passDue(20));
  }

  /**
   * Splits its re-plan: the snapshot records the first job's ready tasks, the solve blocks until
   * released, the install bumps the plan number that each assign names. Gives every free GPU to
   * the first job's ready tasks.
   */
  private static final class Splitting implements SchedulingPolicy {
    final CountDownLatch solving = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final List<String> events = new ArrayList<>();
    volatile boolean replanDue;
    volatile boolean failSolve;
    volatile boolean failSnapshot;
    volatile String solveThread;
    String lastAssigned;
    private int plan;

    synchronized List<String> events() {
      return List.copyOf(events);
    }

    private synchronized void record(String e) {
      events.add(e);
    }

    @Override
    public String name() {
      return "splitting";
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
    public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
      record("started");
    }

    @Override
    public boolean replanDue(long nowMs) {
      return replanDue;
    }

    @Override
    public void replan(ClusterView cluster, long nowMs) {
      throw new AssertionError("a splitting policy's host calls startReplan");
    }

    @Override
    public Optional<Replan> startReplan(ClusterView cluster, long nowMs) {
      replanDue = false;
      if (failSnapshot) {
        throw new IllegalStateException("a job this policy cannot plan");
      }
      record("snapshot " + cluster.jobs().get(0).readyTasks() + " at " + nowMs);
      boolean fail = failSolve;
      return Optional.of(() -> {
        solveThread = Thread.currentThread().getName();
        solving.countDown();
        try {
          release.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        if (fail) {
          throw new IllegalStateException("solver broke");
        }
        return (c, installMs) -> {
          plan++;
          record("install at " + installMs);
        };
      });
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      JobView j = cluster.jobs().get(0);
      record("assign by plan " + plan + " at " + nowMs);
      List<Assignment> out = new ArrayList<>();
      for (int i = 0; i < Math.min(j.readyTasks(), freeGpus.size()); i++) {
        out.add(new Assignment(freeGpus.get(i).id(), j.id()));
        lastAssigned = freeGpus.get(i).id();
      }
      return out;
    }
  }
}
