package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.Test;

/**
 * What the policy reads as a job's finished rounds in the scheduler
 * ({@link io.hare.core.policy.JobView#roundsDone}): a round whose tasks have all ended but whose
 * sync still runs is not done, as in the simulator; it is done when the AM asks for the next
 * round, which is when the policy hears {@code onRoundDone}. Counted at its last task's end, a
 * re-plan during the sync would plan the job one round short, and the scheduler would decide
 * otherwise than the simulator ({@code RecordedRunReplayTest} keeps a run where it did).
 */
public class PolicyHostRoundsDoneTest {

  private final GpuInventory inventory = new GpuInventory();
  private final TaskTimeSource times = new TaskTimeSource(ProfileTable.builder().build(), 100,
      1, 10);

  @Test(timeout = 60_000)
  public void aRoundIsDoneWhenItsSyncEndsNotWhenItsTasksDo() {
    Recording policy = new Recording();
    PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, Runnable::run, n -> { });
    inventory.setNode(NodeId.newInstance("h1", 1), 2, GpuType.of("v100"));
    ApplicationId id = ApplicationId.newInstance(1, 1);
    times.addJob(id.toString(), null);
    YarnJob job = new YarnJob(id, 0, 1, new JobTags.Info(1, OptionalInt.of(3),
        OptionalInt.of(2), Optional.empty()), true, times);

    host.asksChanged(job, 2, 0);
    List<Assignment> placed = host.pass(0);
    assertEquals(2, placed.size());
    List<YarnGpu> gpus = new ArrayList<>();
    for (Assignment a : placed) {
      YarnGpu g = inventory.gpu(a.gpuId());
      gpus.add(g);
      host.taskStarted(job, g, 0);
    }
    host.taskEnded(job, gpus.get(0), 100, true, 100, true);
    host.taskEnded(job, gpus.get(1), 110, true, 110, true); // the round's sync starts
    policy.replanDue = true;
    host.pass(120);
    host.asksChanged(job, 2, 200); // the sync is over: the AM asks for round 1
    host.pass(200);
    host.taskStarted(job, gpus.get(0), 200);
    host.taskEnded(job, gpus.get(0), 300, true, 100, true);

    assertEquals(List.of(
        "arrived 0", "assign 0", "started 0", "started 0",
        "computed 0", "computed 0", // the second one's sync runs: round 0 is not done yet
        "replan 0", // a plan made during the sync plans round 0's sync and rounds 1 and 2
        "round done 1", "assign 1", "started 1", "computed 1"), policy.events);
  }

  /** A host of {@code policy} on one node of {@code gpus} V100s. */
  private PolicyHost host(Recording policy, int gpus) {
    inventory.setNode(NodeId.newInstance("h1", 1), gpus, GpuType.of("v100"));
    return new PolicyHost(policy, inventory, times, 0, 0, Runnable::run, n -> { });
  }

  /** A job of 3 rounds of {@code k} whose AM speaks the Hare protocol. */
  private YarnJob job(int k) {
    ApplicationId id = ApplicationId.newInstance(1, 1);
    times.addJob(id.toString(), null);
    return new YarnJob(id, 0, 1, new JobTags.Info(1, OptionalInt.of(3), OptionalInt.of(k),
        Optional.empty(), false, JobTags.PROTOCOL_VERSION), true, times);
  }

  /**
   * A task that went uncounted (a warm container's "next task started" that YARN refused,
   * because the container's end reached it first) leaves the count short of a whole round. The
   * next round's ask shows the round ended: the round is counted done, so nothing waits on a
   * barrier that has cleared.
   */
  @Test(timeout = 60_000)
  public void aRoundAskedForAfterATaskWentUncountedCountsTheRoundBeforeItDone() {
    Recording policy = new Recording();
    PolicyHost host = host(policy, 1);
    YarnJob job = job(2);
    host.asksChanged(job, 2, 0);
    YarnGpu g = inventory.gpu(host.pass(0).get(0).gpuId());
    host.taskStarted(job, g, 0);
    host.asksChanged(job, 0, 50); // its warm container runs the second task: the report is lost
    host.taskEnded(job, g, 100, true, 100, true); // the container's end: one task of two counted
    host.pass(110);
    host.asksChanged(job, 2, 200); // the sync is over: the AM asks for round 1
    host.pass(200);
    assertEquals(List.of("arrived 0", "assign 0", "started 0", "computed 0", "round done 1",
        "assign 1"), policy.events);
  }

  /**
   * A new AM attempt runs the round it was in again from its first task: what the attempt
   * before finished of it does not count, or the round would look done before its redo is.
   */
  @Test(timeout = 60_000)
  public void afterANewAttemptItsRoundCountsFromItsFirstTask() {
    Recording policy = new Recording();
    PolicyHost host = host(policy, 2);
    YarnJob job = job(2);
    host.asksChanged(job, 2, 0);
    List<YarnGpu> gpus = new ArrayList<>();
    for (Assignment a : host.pass(0)) {
      gpus.add(inventory.gpu(a.gpuId()));
      host.taskStarted(job, gpus.get(gpus.size() - 1), 0);
    }
    host.taskEnded(job, gpus.get(0), 100, true, 100, true);
    host.taskEnded(job, gpus.get(1), 120, false, 120, false); // the AM died: its task killed
    job.attemptRestarted();
    host.asksChanged(job, 2, 300); // the new attempt runs round 0 again
    host.pass(300);
    host.taskStarted(job, gpus.get(0), 300);
    host.taskStarted(job, gpus.get(1), 300);
    host.taskEnded(job, gpus.get(0), 400, true, 100, true);
    assertEquals("one of the redone round's two tasks", 0, job.liveRoundsDone());
    host.taskEnded(job, gpus.get(1), 410, true, 110, true);
    host.asksChanged(job, 2, 500);
    host.pass(500);
    assertEquals(1, job.roundsDone());
    assertEquals("round done 1", policy.events.get(policy.events.size() - 2));
  }

  /** Records each call with the job's finished rounds as it reads them then. */
  private static final class Recording implements SchedulingPolicy {
    final List<String> events = new ArrayList<>();
    boolean replanDue;

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public boolean clairvoyant() {
      return true;
    }

    @Override
    public void onJobArrived(JobView job, long nowMs) {
      events.add("arrived " + job.roundsDone());
    }

    @Override
    public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
      events.add("started " + job.roundsDone());
    }

    @Override
    public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
      events.add("computed " + job.roundsDone());
    }

    @Override
    public void onRoundDone(JobView job, long nowMs) {
      events.add("round done " + job.roundsDone());
    }

    @Override
    public boolean replanDue(long nowMs) {
      return replanDue;
    }

    @Override
    public void replan(ClusterView cluster, long nowMs) {
      replanDue = false;
      events.add("replan " + cluster.jobs().get(0).roundsDone());
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      JobView job = cluster.jobs().get(0);
      events.add("assign " + job.roundsDone());
      List<Assignment> out = new ArrayList<>();
      for (int i = 0; i < Math.min(job.readyTasks(), freeGpus.size()); i++) {
        out.add(new Assignment(freeGpus.get(i).id(), job.id()));
      }
      return out;
    }
  }
}
