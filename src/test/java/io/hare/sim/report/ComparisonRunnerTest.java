package io.hare.sim.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.plan.RelaxationBound;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.workload.Workload;
import io.hare.testing.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Parallel runs give what one-at-a-time runs give, in the order given. */
public class ComparisonRunnerTest {

  private static final ClusterSpec CLUSTER = Workloads.smallCluster();
  private static final Workload WORKLOAD =
      new Workload("fixture", Workloads.randomJobs(11, 20), Workloads.profiles());

  @Test(timeout = 60_000)
  public void parallelRunsMatchSequentialOnesInTheGivenOrder() {
    List<SchedulingPolicy> ps = new ArrayList<>();
    for (long seed = 1; seed <= 4; seed++) {
      ps.add(new YarnFifoPolicy(new PolicyConfig(Map.of(), seed)));
    }
    SimOptions opts = new SimOptions(15, true);
    Comparison c = ComparisonRunner.run(WORKLOAD, CLUSTER, ps, opts, 3);
    assertEquals(4, c.results().size());
    for (int i = 0; i < 4; i++) {
      SimResult alone = new Simulator(CLUSTER, WORKLOAD.jobs(), WORKLOAD.profiles(), opts)
          .run(new YarnFifoPolicy(new PolicyConfig(Map.of(), i + 1)));
      assertEquals("seed " + (i + 1), alone.tasks(), c.results().get(i).tasks());
      assertEquals(alone.jobs(), c.results().get(i).jobs());
    }
    assertEquals(RelaxationBound.totalWeightedJctS(CLUSTER, WORKLOAD.jobs(), WORKLOAD.profiles()),
        c.lowerBoundS(), 1e-9);
    assertEquals("fixture", c.workload());
    assertEquals(20, c.jobs());
    assertEquals(15, c.switchMs());
  }

  @Test(timeout = 60_000)
  public void aFailingSimulationIsRethrown() {
    SchedulingPolicy broken = new SchedulingPolicy() {
      @Override
      public String name() {
        return "broken";
      }

      @Override
      public boolean clairvoyant() {
        return false;
      }

      @Override
      public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> free,
          long nowMs) {
        throw new ArithmeticException("boom");
      }
    };
    try {
      ComparisonRunner.run(WORKLOAD, CLUSTER,
          List.of(new YarnFifoPolicy(PolicyConfig.defaults()), broken), SimOptions.defaults(), 2);
      fail("expected the policy's exception");
    } catch (ArithmeticException e) {
      assertTrue(e.getMessage().contains("boom"));
    }
  }
}
