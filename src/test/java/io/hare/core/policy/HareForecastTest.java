package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.plan.Forecast;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.junit.Test;

/**
 * The hare policy's completion forecast, taken by the simulator's host at the first offer: with
 * exact task times, no failures and no arrivals after it, it predicts what the run then does.
 */
public class HareForecastTest {

  /** Forwards to hare and keeps the forecast of the first offer. */
  private static final class FirstForecast implements SchedulingPolicy {
    final SchedulingPolicy hare;
    Forecast first;

    FirstForecast(SchedulingPolicy hare) {
      this.hare = hare;
    }

    @Override
    public String name() {
      return hare.name();
    }

    @Override
    public boolean clairvoyant() {
      return hare.clairvoyant();
    }

    @Override
    public void onJobArrived(JobView job, long nowMs) {
      hare.onJobArrived(job, nowMs);
    }

    @Override
    public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
      hare.onTaskStarted(job, gpu, nowMs);
    }

    @Override
    public void onTaskComputed(JobView job, GpuView gpu, long nowMs, long computeMs) {
      hare.onTaskComputed(job, gpu, nowMs, computeMs);
    }

    @Override
    public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
      hare.onTaskFailed(job, gpu, nowMs);
    }

    @Override
    public void onTasksReady(JobView job, long nowMs) {
      hare.onTasksReady(job, nowMs);
    }

    @Override
    public void onRoundDone(JobView job, long nowMs) {
      hare.onRoundDone(job, nowMs);
    }

    @Override
    public void onJobDone(JobView job, long nowMs) {
      hare.onJobDone(job, nowMs);
    }

    @Override
    public boolean replanDue(long nowMs) {
      return hare.replanDue(nowMs);
    }

    @Override
    public void replan(ClusterView cluster, long nowMs) {
      hare.replan(cluster, nowMs);
    }

    @Override
    public OptionalLong wakeUpAtMs() {
      return hare.wakeUpAtMs();
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      if (first == null) {
        Optional<Supplier<Forecast>> f = hare.forecast(cluster, nowMs);
        assertTrue("hare makes a forecast", f.isPresent());
        first = f.get().get();
      }
      return hare.assign(cluster, freeGpus, nowMs);
    }
  }

  @Test(timeout = 30_000)
  public void predictsTheRunWhenEstimatesAreExact() throws Exception {
    // a (weight 2, 2 rounds of 2) goes first by Smith's rule and takes both GPUs for 200 ms;
    // b (3 rounds of 1) then runs its rounds one after the other: 300, 400, 500 ms
    ProfileTable t = ProfileTable.builder().put("m", "v100", 100, 0).build();
    List<JobSpec> jobs = List.of(new JobSpec("a", 0, 2, "m", 2, 2),
        new JobSpec("b", 0, 1, "m", 1, 3));
    FirstForecast p = new FirstForecast(
        Policies.create(HarePolicy.NAME, new PolicyConfig(Map.of(), 1)));
    SimResult r = new Simulator(ClusterSpec.parse("v100=2"), jobs, t, SimOptions.defaults())
        .run(p);
    assertEquals(0, p.first.atMs());
    for (JobOutcome o : r.jobs()) {
      assertEquals(o.jobId(), o.completionMs(), p.first.completionMs(o.jobId()).getAsLong());
    }
    assertEquals(200, p.first.completionMs("a").getAsLong());
    assertEquals(500, p.first.completionMs("b").getAsLong());
  }

  @Test(timeout = 30_000)
  public void aPolicyWithoutOneSaysSo() throws Exception {
    SchedulingPolicy fifo = Policies.create(YarnFifoPolicy.NAME, new PolicyConfig(Map.of(), 1));
    assertTrue(fifo.forecast(null, 0).isEmpty());
  }
}
