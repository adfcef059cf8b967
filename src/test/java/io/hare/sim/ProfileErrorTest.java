package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.JobView;
import io.hare.core.profile.ProfileTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * Wrong profiles: true times drawn apart from what the policies are told, a mean-one factor per
 * job and type, and the policies seeing each job's times refined by its finished tasks.
 */
public class ProfileErrorTest {

  private static final GpuType A = GpuType.of("a");
  /** m: 100 ms + 30 ms sync on a. */
  private static final ProfileTable P = ProfileTable.builder().put("m", "a", 100, 30).build();

  @Test(timeout = 60_000)
  public void theFactorsHaveMeanOneTheirSigmaAndOneDrawPerSeedJobAndType() {
    ProfileError e = new ProfileError(0.5, 1, 7, 3, 20);
    int n = 20_000;
    double sum = 0;
    double sumLog = 0;
    double sumLog2 = 0;
    for (int i = 0; i < n; i++) {
      double f = e.factor("job-" + i, A);
      sum += f;
      sumLog += Math.log(f);
      sumLog2 += Math.log(f) * Math.log(f);
    }
    double meanLog = sumLog / n;
    assertEquals("mean 1", 1.0, sum / n, 0.02);
    assertEquals("log-deviation sigma", 0.5, Math.sqrt(sumLog2 / n - meanLog * meanLog), 0.02);
    assertEquals("one draw per job and type", e.factor("j", A), e.factor("j", A), 0);
    assertNotEquals("another type, another draw", e.factor("j", A),
        e.factor("j", GpuType.of("b")), 1e-9);
    assertNotEquals("another seed, another draw", e.factor("j", A),
        new ProfileError(0.5, 1, 8, 3, 20).factor("j", A), 1e-9);
    assertEquals("none without error", 1, ProfileError.NONE.factor("j", A), 0);
  }

  @Test(timeout = 60_000)
  public void tasksTakeTheBiasedTimesAndThePolicySeesTheJobsMeasuredTimes() {
    // bias 3 without noise: each task computes 300 ms (sync 30 stays); the policy is told 100
    // ms at first, then the estimator's mean of the prior (3 samples' worth of 100) and the
    // measured 300s: (3 x 100 + 300) / 4 = 150 after one task, (300 + 600) / 5 = 180 after two
    List<Double> seen = new ArrayList<>();
    TestingPolicy fcfs = TestingPolicy.firstComeFirstServed();
    TestingPolicy recording = new TestingPolicy((cluster, free, now) -> {
      JobView j = cluster.job("J");
      if (j != null) {
        seen.add(j.times(A).computeMs());
      }
      List<Assignment> out = new ArrayList<>();
      out.addAll(fcfs.assign(cluster, free, now));
      return out;
    });
    SimOptions o = new SimOptions(0, true, new ProfileError(0, 3, 1, 3, 20));
    SimResult r = new Simulator(ClusterSpec.parse("a=1"), List.of(new JobSpec("J", 0, 1, "m", 1,
        3)), P, o).run(recording);
    for (TaskRecord t : r.tasks()) {
      assertEquals(t.toString(), 300, t.computeEndMs() - t.computeStartMs());
      assertEquals(t.toString(), 30, t.syncEndMs() - t.computeEndMs());
    }
    assertEquals(3 * 330, r.jobs().get(0).completionMs());
    assertEquals(List.of(100.0, 150.0, 180.0), seen);
    // without error the policy is told 100 ms throughout and tasks take it
    SimResult exact = new Simulator(ClusterSpec.parse("a=1"), List.of(new JobSpec("J", 0, 1,
        "m", 1, 3)), P, SimOptions.defaults()).run(TestingPolicy.firstComeFirstServed());
    assertEquals(3 * 130, exact.jobs().get(0).completionMs());
  }
}
