package io.hare.core.policy.gang;

import static io.hare.core.policy.gang.GangRuns.job;
import static io.hare.core.policy.gang.GangRuns.roundStart;
import static io.hare.core.policy.gang.GangRuns.tasks;
import static io.hare.core.policy.gang.GangRuns.types;
import static org.junit.Assert.assertEquals;

import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimResult;
import io.hare.sim.TaskRecord;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Assume;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** The lease mechanism every gang baseline shares ({@link GangLeases}, {@link GangPlacement}). */
@RunWith(Parameterized.class)
public class GangLeasesTest {

  @Parameters(name = "{0}")
  public static List<Object[]> policies() {
    return List.of(new Object[] {GavelFifoPolicy.NAME}, new Object[] {SrtfPolicy.NAME},
        new Object[] {AlloxPolicy.NAME}, new Object[] {TiresiasLasPolicy.NAME});
  }

  private final String name;

  public GangLeasesTest(String name) {
    this.name = name;
  }

  @Test(timeout = 60_000)
  public void roundsStartTogetherOnHeldGpusThatIdleThroughSync() throws Exception {
    // a: 2 rounds of 100 ms compute + 100 ms sync on both v100. Its GPUs compute nothing during
    // 100..200 and 300..400 but stay held; b (1 GPU, arrived at 10, no shorter than a's last
    // round, not in a higher queue) gets one only when a is done.
    ProfileTable t = ProfileTable.builder().put("cnn", "v100", 100, 100).build();
    SimResult r = GangRuns.run(name, "v100=2", t, job("a", 0, "cnn", 2, 2),
        job("b", 10, "cnn", 1, 1));
    assertEquals(0, roundStart(r, "a", 0));
    assertEquals(200, roundStart(r, "a", 1));
    assertEquals(gpus(r, "a", 0), gpus(r, "a", 1));
    assertEquals(400, roundStart(r, "b", 0));
  }

  @Test(timeout = 60_000)
  public void jobWiderThanEveryTypeSpansTypesFastestFirst() throws Exception {
    Assume.assumeFalse(name.equals(TiresiasLasPolicy.NAME)); // type-blind: any 3 GPUs
    ProfileTable t = ProfileTable.builder().put("cnn", "v100", 100, 0)
        .put("cnn", "t4", 300, 0).put("cnn", "k80", 700, 0).build();
    SimResult r = GangRuns.run(name, "v100=2,t4=1,k80=1", t, job("wide", 0, "cnn", 3, 2));
    assertEquals(Set.of("v100", "t4"), types(r, "wide", 0));
    assertEquals(300, roundStart(r, "wide", 1)); // the round lasts as long as its t4 task
  }

  private static Set<String> gpus(SimResult r, String job, int round) {
    return tasks(r, job, round).stream().map(TaskRecord::gpuId).collect(Collectors.toSet());
  }
}
