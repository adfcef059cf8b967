package io.hare.sim;

import static org.junit.Assert.assertEquals;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.ProfileTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.Test;

/**
 * Tasks the host starts by its own rule (a replay's warm continuations) start before the policy
 * is asked, so the policy hears of them first and its offer holds the GPUs left: as on YARN, where
 * a continued task is counted before the pass.
 */
public class HostStartsTest {

  /** s: 100 ms compute + 50 ms sync on a. */
  private static final ProfileTable P = ProfileTable.builder().put("s", "a", 100, 50).build();

  @Test(timeout = 60_000)
  public void aHostStartIsCountedBeforeTheOffer() {
    List<String> seen = new ArrayList<>();
    SchedulingPolicy fcfs = TestingPolicy.firstComeFirstServed();
    SchedulingPolicy recording = new SchedulingPolicy() {
      @Override
      public String name() {
        return "recording";
      }

      @Override
      public boolean clairvoyant() {
        return false;
      }

      @Override
      public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
        seen.add("started " + job.id() + " on " + gpu.id() + " at " + nowMs);
        fcfs.onTaskStarted(job, gpu, nowMs);
      }

      @Override
      public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> free,
          long nowMs) {
        JobView x = cluster.job("X");
        seen.add("offered " + free.stream().map(GpuView::id).toList() + " at " + nowMs
            + " with X ready " + (x == null ? 0 : x.readyTasks()) + ", running "
            + (x == null ? 0 : x.runningTasks()));
        return fcfs.assign(cluster, free, nowMs);
      }
    };
    // the host goes on with X on a-0 at 0, whatever the policy would say
    HostStarts host = (cluster, free, nowMs) -> nowMs == 0
        && free.stream().anyMatch(g -> g.id().equals("a-0"))
        ? List.of(new Assignment("a-0", "X")) : List.of();
    SimResult r = new Simulator(ClusterSpec.parse("a=2"),
        List.of(new JobSpec("X", 0, 1, "s", 2, 1)), P, SimOptions.defaults())
        .run(recording, host);
    assertEquals(List.of(
        "started X on a-0 at 0",
        "offered [a-1] at 0 with X ready 1, running 1",
        "started X on a-1 at 0"), seen);
    List<TaskRecord> t = new ArrayList<>(r.tasks());
    t.sort(Comparator.comparingInt(TaskRecord::index));
    assertEquals(List.of(new TaskRecord("X", 0, 0, "a-0", "a", 0, 0, 100, 150),
        new TaskRecord("X", 0, 1, "a-1", "a", 0, 0, 100, 150)), t);
  }
}
