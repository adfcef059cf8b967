package io.hare.sim.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole Philly trace (82,247 jobs): loads, stays within the round cap, and a prefix of it
 * simulates. Not a unit test (surefire skips {@code *Bench}); run it with
 * {@code mvn -o test -Dtest=PhillyWorkloadBench -Dhare.bench.simulate-jobs=N} (default 5000;
 * 0 simulates the whole trace). Needs {@code ../shared/data} or {@code ../../shared/data}.
 */
public class PhillyWorkloadBench {

  private static final Logger LOG = LoggerFactory.getLogger(PhillyWorkloadBench.class);

  private static Path data(String name) {
    for (String p : new String[] {"../shared/data", "../../shared/data"}) {
      Path f = Path.of(p, name);
      if (Files.isRegularFile(f)) {
        return f;
      }
    }
    return null;
  }

  @Test(timeout = 3_600_000)
  public void wholeTraceLoadsAndAPrefixSimulates() throws Exception {
    Path trace = data("philly-jobs.csv");
    Path gavel = data("gavel-simulation-throughputs.json");
    assumeTrue("shared data not found", trace != null && gavel != null);
    ClusterSpec cluster = ClusterSpec.parse("v100=40,p100=40,k80=40");
    long t0 = System.nanoTime();
    Workload w = PhillyWorkload.load(trace, gavel, cluster, 0, 1, Map.of());
    long loadMs = (System.nanoTime() - t0) / 1_000_000;
    List<JobSpec> jobs = w.jobs();
    assertEquals(82_247, jobs.size());
    long tasks = 0;
    for (int i = 0; i < jobs.size(); i++) {
      JobSpec j = jobs.get(i);
      assertTrue(j.rounds() <= 200);
      assertTrue(i == 0 || jobs.get(i - 1).arrivalMs() <= j.arrivalMs());
      tasks += j.totalTasks();
    }
    WorkloadFiles.checkRunnable(w, cluster);
    LOG.info("philly: loaded {} jobs, {} tasks, {} profile entries in {} ms", jobs.size(), tasks,
        w.profiles().models().size(), loadMs);

    int n = Integer.getInteger("hare.bench.simulate-jobs", 5000);
    List<JobSpec> prefix = n <= 0 || n >= jobs.size() ? jobs : jobs.subList(0, n);
    t0 = System.nanoTime();
    SimResult r = new Simulator(cluster, prefix, w.profiles(), new SimOptions(0, false))
        .run(new YarnFifoPolicy(PolicyConfig.defaults()));
    long simMs = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(0, r.unfinishedJobs());
    LOG.info("philly: simulated {} jobs ({} tasks) with yarn-fifo in {} ms; avg JCT {} s",
        prefix.size(), prefix.stream().mapToLong(JobSpec::totalTasks).sum(), simMs,
        r.avgJctS());
  }
}
