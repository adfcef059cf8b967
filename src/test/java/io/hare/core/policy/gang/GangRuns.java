package io.hare.core.policy.gang;

import static org.junit.Assert.assertEquals;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.testing.ScheduleChecks;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Runs a gang policy on a tiny case and reads its task records. */
final class GangRuns {

  private GangRuns() {}

  /** Simulates and checks the schedule against the model's rules before returning it. */
  static SimResult run(String policy, Map<String, String> conf, long seed, String cluster,
      ProfileTable truth, JobSpec... jobs) throws Exception {
    ClusterSpec c = ClusterSpec.parse(cluster);
    SimResult r = new Simulator(c, List.of(jobs), truth, SimOptions.defaults())
        .run(Policies.create(policy, new PolicyConfig(conf, seed)));
    ScheduleChecks.assertValid(r, c, List.of(jobs), truth, 0);
    return r;
  }

  static SimResult run(String policy, String cluster, ProfileTable truth, JobSpec... jobs)
      throws Exception {
    return run(policy, Map.of(), 0, cluster, truth, jobs);
  }

  static JobSpec job(String id, long arrivalMs, String model, int k, int rounds) {
    return new JobSpec(id, arrivalMs, 1, model, k, rounds);
  }

  static List<TaskRecord> tasks(SimResult r, String job, int round) {
    return r.tasks().stream().filter(t -> t.jobId().equals(job) && t.round() == round)
        .sorted(Comparator.comparingInt(TaskRecord::index)).collect(Collectors.toList());
  }

  /** When the round's k tasks started; asserts they started together, as a gang does. */
  static long roundStart(SimResult r, String job, int round) {
    List<TaskRecord> ts = tasks(r, job, round);
    long start = ts.get(0).startMs();
    for (TaskRecord t : ts) {
      assertEquals(job + " round " + round + " started together", start, t.startMs());
    }
    return start;
  }

  /** GPU types the round ran on. */
  static Set<String> types(SimResult r, String job, int round) {
    return tasks(r, job, round).stream().map(TaskRecord::gpuType)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  static long completion(SimResult r, String job) {
    return r.jobs().stream().filter(o -> o.jobId().equals(job)).findFirst().orElseThrow()
        .completionMs();
  }
}
