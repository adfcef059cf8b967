package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.plan.Forecast;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.Test;

/**
 * The hare policy's completion forecast, taken by the simulator's host at the first offer: with
 * exact task times, no failures and no arrivals after it, it predicts what the run then does.
 */
public class HareForecastTest {

  private Forecast first;

  /** Hare, keeping the forecast its host could take at the first offer. */
  private SchedulingPolicy forecastingAtFirstOffer(SchedulingPolicy hare) {
    return (SchedulingPolicy) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchedulingPolicy.class}, (proxy, method, args) -> {
          if (method.getName().equals("assign") && first == null) {
            Optional<Supplier<Forecast>> f = hare.forecast((ClusterView) args[0], (long) args[2]);
            assertTrue("hare makes a forecast", f.isPresent());
            first = f.get().get();
          }
          try {
            return method.invoke(hare, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test(timeout = 60_000)
  public void predictsTheRunWhenEstimatesAreExact() throws Exception {
    // a (weight 2, 2 rounds of 2) goes first by Smith's rule and takes both GPUs for 200 ms;
    // b (3 rounds of 1) then runs its rounds one after the other: 300, 400, 500 ms
    ProfileTable t = ProfileTable.builder().put("m", "v100", 100, 0).build();
    List<JobSpec> jobs = List.of(new JobSpec("a", 0, 2, "m", 2, 2),
        new JobSpec("b", 0, 1, "m", 1, 3));
    SchedulingPolicy p = forecastingAtFirstOffer(
        Policies.create(HarePolicy.NAME, new PolicyConfig(Map.of(), 1)));
    SimResult r = new Simulator(ClusterSpec.parse("v100=2"), jobs, t, SimOptions.defaults())
        .run(p);
    assertEquals(0, first.atMs());
    for (JobOutcome o : r.jobs()) {
      assertEquals(o.jobId(), o.completionMs(), first.completionMs(o.jobId()).getAsLong());
    }
    assertEquals(200, first.completionMs("a").getAsLong());
    assertEquals(500, first.completionMs("b").getAsLong());
  }

  @Test(timeout = 60_000)
  public void aPolicyWithoutOneSaysSo() throws Exception {
    SchedulingPolicy fifo = Policies.create(YarnFifoPolicy.NAME, new PolicyConfig(Map.of(), 1));
    assertTrue(fifo.forecast(null, 0).isEmpty());
  }
}
