package io.hare.sim;

import static org.junit.Assert.assertTrue;

import io.hare.core.plan.RelaxationBound;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.testing.Corpus;
import io.hare.testing.ScheduleChecks;
import java.util.Map;
import org.junit.Test;

/**
 * The labelled lower bound (with the cross-type limit) holds for every schedule a policy
 * produces: no policy, on any of 15 random medium instances of 1-4 GPU types with syncs of 0-3x
 * compute, finishes its jobs below it. The critical-path sum, printed beside it, is below it too.
 */
public class BoundValidityTest {

  @Test(timeout = 120_000)
  public void noPolicyGoesBelowTheBound() throws Exception {
    for (long seed = 1; seed <= 15; seed++) {
      Corpus.Instance in = Corpus.medium(seed);
      double bound = RelaxationBound.totalWeightedJctS(in.cluster(), in.jobs(), in.profiles());
      double critical = RelaxationBound.criticalPathSumS(in.cluster(), in.jobs(),
          in.profiles());
      assertTrue(in + ": bound " + bound + " below the critical paths " + critical,
          bound >= critical - 1e-9);
      for (String name : Policies.names()) {
        SimResult r = new Simulator(in.cluster(), in.jobs(), in.profiles(),
            new SimOptions(0, true)).run(Policies.create(name, new PolicyConfig(Map.of(), seed)));
        if (r.unfinishedJobs() > 0) {
          continue; // a gang policy that cannot fit a job's k: its total is over fewer jobs
        }
        ScheduleChecks.assertValid(r, in.cluster(), in.jobs(), in.profiles(), 0);
        assertTrue(in + ": " + name + " " + r.totalWeightedJctS() + " below the bound " + bound,
            r.totalWeightedJctS() >= bound - 1e-6);
      }
    }
  }
}
