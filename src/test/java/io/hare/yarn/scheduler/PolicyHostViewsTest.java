package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

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
 * The jobs the policy sees ({@link ClusterView#jobs}, {@link ClusterView#job}) follow the jobs
 * that came and went between two passes, in arrival order whatever order the host heard of them
 * in, and stay fixed within a pass.
 */
public class PolicyHostViewsTest {

  private final GpuInventory inventory = new GpuInventory();
  private final TaskTimeSource times = new TaskTimeSource(ProfileTable.builder().build(), 100,
      1, 10);
  private final Seeing policy = new Seeing();
  private final PolicyHost host = new PolicyHost(policy, inventory, times, 0, 0, Runnable::run,
      n -> { });
  private int apps;

  @Test(timeout = 60_000)
  public void thePolicySeesTheJobsInArrivalOrderAsTheyComeAndGo() {
    inventory.setNode(NodeId.newInstance("h1", 1), 1, GpuType.of("v100"));
    YarnJob a = job(300);
    YarnJob b = job(100);
    YarnJob c = job(200);
    for (YarnJob j : List.of(a, b, c)) {
      host.asksChanged(j, 1, 300);
    }
    host.pass(300);
    assertEquals(List.of(b.id(), c.id(), a.id()), policy.seen);
    for (YarnJob j : List.of(a, b, c)) {
      assertSame(j, host.job(j.id()));
    }

    host.jobDone(c, 400);
    YarnJob d = job(50); // heard of late (as after a restart), arrived first
    host.asksChanged(d, 1, 400);
    YarnJob e = job(350); // came and went between two passes: never shown
    host.asksChanged(e, 1, 400);
    host.jobDone(e, 400);
    host.markDirty();
    host.pass(400);
    assertEquals(List.of(d.id(), b.id(), a.id()), policy.seen);
    assertNull(host.job(c.id()));
    assertNull(host.job(e.id()));

    for (YarnJob j : List.of(a, b, d)) {
      host.jobDone(j, 500);
    }
    host.markDirty();
    host.pass(500);
    assertEquals(List.of(), host.jobs());
  }

  /** A burst of jobs heard of out of arrival order is shown in arrival order all the same. */
  @Test(timeout = 60_000)
  public void aBurstOfJobsIsShownInArrivalOrder() {
    inventory.setNode(NodeId.newInstance("h1", 1), 1, GpuType.of("v100"));
    List<YarnJob> jobs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      jobs.add(job((i * 7919L) % 300)); // every arrival time from 0 to 299 once, shuffled
    }
    for (YarnJob j : jobs) {
      host.asksChanged(j, 1, 300);
    }
    host.jobDone(jobs.get(0), 300);
    host.pass(300);
    List<String> expected = new ArrayList<>();
    jobs.subList(1, jobs.size()).stream()
        .sorted(java.util.Comparator.comparingLong(YarnJob::arrivalMs))
        .forEach(j -> expected.add(j.id()));
    assertEquals(expected, policy.seen);
    assertNull(host.job(jobs.get(0).id()));
  }

  private YarnJob job(long arrivalMs) {
    ApplicationId id = ApplicationId.newInstance(1, ++apps);
    times.addJob(id.toString(), null);
    return new YarnJob(id, arrivalMs, 1, new JobTags.Info(1, OptionalInt.of(3),
        OptionalInt.of(1), Optional.empty()), true, times);
  }

  /** Records the ids of the jobs it sees in each assign; places nothing. */
  private static final class Seeing implements SchedulingPolicy {
    List<String> seen = List.of();

    @Override
    public String name() {
      return "seeing";
    }

    @Override
    public boolean clairvoyant() {
      return true;
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      List<String> ids = new ArrayList<>();
      for (JobView j : cluster.jobs()) {
        ids.add(j.id());
        assertSame(j, cluster.job(j.id()));
      }
      seen = ids;
      return List.of();
    }
  }
}
