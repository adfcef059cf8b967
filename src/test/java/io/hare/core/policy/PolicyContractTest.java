package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.testing.ScheduleChecks;
import io.hare.testing.Workloads;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The contract every policy passes: capacity per type never exceeded, no task placed twice, the
 * round barrier respected, only eligible GPU types, every job finished on a non-empty cluster,
 * the same schedule for the same seed, and nothing placed on an empty cluster.
 */
@RunWith(Parameterized.class)
public class PolicyContractTest {

  @Parameters(name = "{0}")
  public static List<Object[]> policies() {
    return Policies.names().stream().map(n -> new Object[] {n}).collect(Collectors.toList());
  }

  private final String name;

  public PolicyContractTest(String name) {
    this.name = name;
  }

  private SchedulingPolicy policy(long seed) throws Exception {
    return Policies.create(name, new PolicyConfig(Map.of(), seed));
  }

  private SimResult run(ClusterSpec cluster, List<JobSpec> jobs, long seed, long switchMs)
      throws Exception {
    ProfileTable truth = Workloads.profiles();
    return new Simulator(cluster, jobs, truth, new SimOptions(switchMs, true)).run(policy(seed));
  }

  @Test(timeout = 60_000)
  public void randomWorkloadsObeyTheRules() throws Exception {
    for (long seed = 1; seed <= 12; seed++) {
      List<JobSpec> jobs = Workloads.randomJobs(seed, 14);
      ClusterSpec cluster = Workloads.smallCluster();
      long switchMs = seed % 3 == 0 ? 25 : 0;
      SimResult r = run(cluster, jobs, seed, switchMs);
      assertEquals(name + " seed " + seed + ": unfinished jobs", 0, r.unfinishedJobs());
      ScheduleChecks.assertValid(r, cluster, jobs, Workloads.profiles(), switchMs);
      assertEquals(name, r.policy());
    }
  }

  @Test(timeout = 60_000)
  public void sameSeedSameSchedule() throws Exception {
    List<JobSpec> jobs = Workloads.randomJobs(99, 16);
    ClusterSpec cluster = Workloads.smallCluster();
    SimResult a = run(cluster, jobs, 7, 10);
    SimResult b = run(cluster, jobs, 7, 10);
    assertEquals(a.tasks(), b.tasks());
    assertEquals(a.jobs(), b.jobs());
  }

  @Test(timeout = 60_000)
  public void emptyClusterPlacesNothing() throws Exception {
    List<JobSpec> jobs = Workloads.randomJobs(3, 5);
    SimResult r = run(new ClusterSpec(List.of()), jobs, 1, 0);
    assertTrue(r.tasks().isEmpty());
    assertEquals(jobs.size(), r.unfinishedJobs());
  }

  @Test(timeout = 60_000)
  public void singleGpuRunsEverythingInTurn() throws Exception {
    // one GPU of a type every model can use: all jobs still finish, one task at a time
    List<JobSpec> jobs = Workloads.randomJobs(5, 6);
    if (GANG.contains(name)) {
      // a gang job needs k GPUs at once and never runs with k > 1 on one GPU: use k = 1
      jobs = jobs.stream().map(j -> new JobSpec(j.id(), j.arrivalMs(), j.weight(), j.model(), 1,
          j.rounds())).collect(Collectors.toList());
    }
    ClusterSpec cluster = ClusterSpec.parse("v100=1");
    SimResult r = run(cluster, jobs, 2, 0);
    assertEquals(0, r.unfinishedJobs());
    ScheduleChecks.assertValid(r, cluster, jobs, Workloads.profiles(), 0);
  }

  /** Policies that need all k GPUs of a round at once (no intra-job parallelism). */
  private static final java.util.Set<String> GANG =
      java.util.Set.of("gavel-fifo", "srtf", "srtf-hetero", "smith-hetero", "allox",
          "tiresias-las");

  @Test(timeout = 60_000)
  public void jobWiderThanAnyTypeStillFinishes() throws Exception {
    // k = 3 fits the cluster but no single type: gang policies must not wait forever
    List<JobSpec> jobs = List.of(new JobSpec("wide", 0, 1, "cnn", 3, 2),
        new JobSpec("small", 10, 1, "gnn", 1, 3));
    ClusterSpec cluster = ClusterSpec.parse("v100=2,t4=1");
    SimResult r = run(cluster, jobs, 1, 0);
    assertEquals(0, r.unfinishedJobs());
    ScheduleChecks.assertValid(r, cluster, jobs, Workloads.profiles(), 0);
  }

  @Test(timeout = 60_000)
  public void relaxedPoliciesRunRoundsWiderThanTheCluster() throws Exception {
    org.junit.Assume.assumeFalse(GANG.contains(name));
    // k = 6 on 3 GPUs: only relaxed fixed-scale synchronisation can run this job at all
    List<JobSpec> jobs = List.of(new JobSpec("wide", 0, 1, "cnn", 6, 2),
        new JobSpec("small", 10, 1, "gnn", 1, 3));
    ClusterSpec cluster = ClusterSpec.parse("v100=2,t4=1");
    SimResult r = run(cluster, jobs, 1, 0);
    assertEquals(0, r.unfinishedJobs());
    ScheduleChecks.assertValid(r, cluster, jobs, Workloads.profiles(), 0);
  }
}
