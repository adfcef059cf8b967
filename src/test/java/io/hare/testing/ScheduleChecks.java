package io.hare.testing;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.profile.TaskTimeModel;
import io.hare.sim.SimResult;
import io.hare.sim.TaskRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Independent checks of a simulated schedule against the model's rules. They read only the task
 * records, never the simulator's internals, so they also catch simulator bugs.
 */
public final class ScheduleChecks {

  private ScheduleChecks() {}

  /** Every rule at once; the message names the policy, job and task that broke it. */
  public static void assertValid(SimResult r, ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel truth, long switchMs) {
    String p = r.policy() + ": ";
    Map<String, Gpu> gpus = new HashMap<>();
    cluster.gpus().forEach(g -> gpus.put(g.id(), g));
    Map<String, JobSpec> byId = new HashMap<>();
    jobs.forEach(j -> byId.put(j.id(), j));

    // each task exactly once, on a GPU of the cluster whose type the job can use
    Set<String> seen = new HashSet<>();
    Map<String, Integer> perJob = new HashMap<>();
    for (TaskRecord t : r.tasks()) {
      assertTrue(p + "task twice: " + t, seen.add(t.jobId() + "/" + t.round() + "/" + t.index()));
      Gpu g = gpus.get(t.gpuId());
      assertNotNull(p + "unknown GPU " + t.gpuId(), g);
      JobSpec j = byId.get(t.jobId());
      assertNotNull(p + "unknown job " + t.jobId(), j);
      assertNotNull(p + "job " + j.id() + " placed on " + g.type() + " where it cannot run",
          truth.times(j.model(), g.type()));
      assertTrue(p + "index out of range " + t, t.index() >= 0 && t.index() < j.tasksPerRound());
      assertTrue(p + "round out of range " + t, t.round() >= 0 && t.round() < j.rounds());
      assertTrue(p + "started before arrival " + t, t.startMs() >= j.arrivalMs());
      long compute = Math.max(1, Math.round(truth.times(j.model(), g.type()).computeMs()));
      assertEquals(p + "compute time " + t, compute, t.computeEndMs() - t.computeStartMs());
      long sync = Math.round(truth.times(j.model(), g.type()).syncMs());
      assertEquals(p + "sync time " + t, sync, t.syncEndMs() - t.computeEndMs());
      assertTrue(p + "switch time " + t, t.computeStartMs() - t.startMs() == 0
          || t.computeStartMs() - t.startMs() == switchMs);
      perJob.merge(t.jobId(), 1, Integer::sum);
    }
    for (JobSpec j : jobs) {
      int n = perJob.getOrDefault(j.id(), 0);
      if (r.jobs().stream().anyMatch(o -> o.jobId().equals(j.id()) && o.finished())) {
        assertEquals(p + "tasks of finished job " + j.id(), j.totalTasks(), n);
      }
    }

    // one task at a time per GPU, hence never more busy GPUs of a type than it has
    Map<String, List<TaskRecord>> byGpu = new HashMap<>();
    r.tasks().forEach(t -> byGpu.computeIfAbsent(t.gpuId(), k -> new ArrayList<>()).add(t));
    for (List<TaskRecord> l : byGpu.values()) {
      l.sort(Comparator.comparingLong(TaskRecord::startMs));
      for (int i = 1; i < l.size(); i++) {
        if (l.get(i).startMs() < l.get(i - 1).computeEndMs()) {
          fail(p + "overlap on " + l.get(i).gpuId() + ": " + l.get(i - 1) + " and " + l.get(i));
        }
      }
    }
    assertCapacity(p, r.tasks(), cluster);

    // the round barrier: round r+1 starts after every task of round r computed and synced
    Map<String, Map<Integer, long[]>> rounds = new HashMap<>();
    for (TaskRecord t : r.tasks()) {
      long[] mm = rounds.computeIfAbsent(t.jobId(), k -> new HashMap<>())
          .computeIfAbsent(t.round(), k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
      mm[0] = Math.min(mm[0], t.startMs());
      mm[1] = Math.max(mm[1], t.syncEndMs());
    }
    rounds.forEach((job, m) -> m.forEach((round, mm) -> {
      long[] next = m.get(round + 1);
      if (next != null && next[0] < mm[1]) {
        fail(p + "job " + job + " round " + (round + 1) + " started at " + next[0]
            + " before round " + round + " ended at " + mm[1]);
      }
    }));

    // completion time is the end of the last round
    r.jobs().stream().filter(o -> o.finished()).forEach(o -> {
      long last = rounds.get(o.jobId()).values().stream().mapToLong(mm -> mm[1]).max()
          .orElseThrow();
      assertEquals(p + "completion of " + o.jobId(), last, o.completionMs());
    });
  }

  private static void assertCapacity(String p, List<TaskRecord> tasks, ClusterSpec cluster) {
    record Edge(long t, int delta, String type) {}
    List<Edge> edges = new ArrayList<>();
    for (TaskRecord t : tasks) {
      edges.add(new Edge(t.startMs(), 1, t.gpuType()));
      edges.add(new Edge(t.computeEndMs(), -1, t.gpuType()));
    }
    edges.sort(Comparator.comparingLong(Edge::t).thenComparingInt(Edge::delta));
    Map<String, Integer> busy = new HashMap<>();
    for (Edge e : edges) {
      int b = busy.merge(e.type(), e.delta(), Integer::sum);
      int cap = cluster.count(GpuType.of(e.type()));
      assertTrue(p + b + " busy GPUs of type " + e.type() + " at " + e.t() + " ms, only " + cap,
          b <= cap);
    }
  }
}
