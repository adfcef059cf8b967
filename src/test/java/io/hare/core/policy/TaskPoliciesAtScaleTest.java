package io.hare.core.policy;

import static org.junit.Assert.assertEquals;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.blind.SchedHomoPolicy;
import io.hare.core.policy.hlas.HlasPolicy;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.testing.ScheduleChecks;
import io.hare.testing.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/**
 * sched-homo and hlas on a 2,000-GPU cluster with 3,000 jobs, most of them queued at once: the
 * timeouts guard against per-offer work that grows with jobs x GPUs, and the schedule must still
 * obey every rule.
 */
public class TaskPoliciesAtScaleTest {

  private static List<JobSpec> jobs() {
    Random r = new Random(42);
    String[] models = {"cnn", "gnn", "rec"};
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      jobs.add(new JobSpec("j" + i, r.nextInt(20_000), 1 + r.nextInt(4), models[r.nextInt(3)],
          1 + r.nextInt(8), 1 + r.nextInt(6)));
    }
    return jobs;
  }

  private static void runs(String policy) throws Exception {
    ClusterSpec cluster = ClusterSpec.parse("v100=700,t4=700,k80=600");
    List<JobSpec> jobs = jobs();
    SimResult r = new Simulator(cluster, jobs, Workloads.profiles(), new SimOptions(5, true))
        .run(Policies.create(policy, new PolicyConfig(Map.of(), 3)));
    assertEquals(0, r.unfinishedJobs());
    ScheduleChecks.assertValid(r, cluster, jobs, Workloads.profiles(), 5);
  }

  @Test(timeout = 60_000)
  public void hlas() throws Exception {
    runs(HlasPolicy.NAME);
  }

  @Test(timeout = 60_000)
  public void schedHomo() throws Exception {
    runs(SchedHomoPolicy.NAME);
  }
}
