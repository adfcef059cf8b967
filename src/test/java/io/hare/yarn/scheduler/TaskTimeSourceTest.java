package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.hare.core.GpuType;
import io.hare.core.profile.ProfileTable;
import org.junit.Test;

/** Task times: the model's profile or a neutral default, refined per job from measured runs. */
public class TaskTimeSourceTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");

  private final TaskTimeSource times = new TaskTimeSource(ProfileTable.builder()
      .put("cnn", "v100", 100, 20).build(), 5000, 1, 10);

  @Test(timeout = 60_000)
  public void profiledModelsUseTheirRowsOthersTheDefault() {
    times.addJob("a", "cnn");
    times.addJob("b", null);
    times.addJob("c", "unknown-model");
    assertEquals(100, times.times("a", V100).computeMs(), 0);
    assertEquals(20, times.times("a", V100).syncMs(), 0);
    assertNull("cnn is not profiled on k80: it cannot run there", times.times("a", K80));
    assertEquals(5000, times.times("b", K80).computeMs(), 0);
    assertEquals(0, times.times("b", K80).syncMs(), 0);
    assertEquals(5000, times.times("c", V100).computeMs(), 0);
  }

  @Test(timeout = 60_000)
  public void measuredRunsRefineOnlyThatJob() {
    times.addJob("a", "cnn");
    times.addJob("a2", "cnn");
    times.observe("a", V100, 300); // prior 100 worth 1 sample: (100 + 300) / 2
    assertEquals(200, times.times("a", V100).computeMs(), 1e-9);
    assertEquals(100, times.times("a2", V100).computeMs(), 0);
    times.removeJob("a");
    assertNull(times.times("a", V100));
  }

  @Test(timeout = 60_000)
  public void aMeasurementOnOneTypeMovesTheCachedEstimateOfTheOthers() {
    times.addJob("b", null); // the neutral default: the same time on every type
    assertEquals(5000, times.times("b", K80).computeMs(), 0);
    times.observe("b", V100, 15_000); // (5000 + 15000) / 2: twice the default
    assertEquals(10_000, times.times("b", V100).computeMs(), 1e-9);
    assertEquals("k80 keeps v100's speed", 10_000, times.times("b", K80).computeMs(), 1e-9);
  }
}
