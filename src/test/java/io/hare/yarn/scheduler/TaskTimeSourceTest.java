package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.hare.core.GpuType;
import io.hare.core.profile.OnlineEstimator.Measured;
import io.hare.core.profile.ProfileTable;
import io.hare.yarn.scheduler.times.MeasuredTimes;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  @Test(timeout = 60_000)
  public void aSnapshotHoldsTheMeasuredJobsAndComesOnlyAfterAChange() {
    times.addJob("a", "cnn");
    times.addJob("b", null); // nothing measured: not saved
    times.observe("a", V100, 300);
    MeasuredTimes.Snapshot s = times.changedSince(-1);
    assertEquals(Map.of("a", List.of(new Measured("cnn", V100, 200, 20, 2))), s.jobs());
    assertNull("nothing changed", times.changedSince(s.version()));
    times.removeJob("a");
    MeasuredTimes.Snapshot gone = times.changedSince(s.version());
    assertEquals("the ended job leaves the next save", Map.of(), gone.jobs());
  }

  /**
   * Saved state seeds a job registered after the load and one registered before it that has
   * measured nothing; a job that measured since keeps its own; state of a job removed before it
   * came back is dropped; state not claimed yet is saved again.
   */
  @Test(timeout = 60_000)
  public void savedStateSeedsTheSameJobAndIsSavedUntilItComesBack() {
    times.addJob("early", "cnn");
    times.addJob("measured", "cnn");
    times.observe("measured", V100, 100);
    List<Measured> saved = List.of(new Measured("cnn", V100, 400, 20, 3));
    times.seed(Map.of("early", saved, "late", saved, "measured", saved, "gone", saved));
    assertEquals(400, times.times("early", V100).computeMs(), 0);
    assertEquals(100, times.times("measured", V100).computeMs(), 1e-9);
    assertEquals(Set.of("early", "late", "measured", "gone"),
        times.changedSince(-1).jobs().keySet());
    times.removeJob("gone");
    times.addJob("late", "cnn");
    assertEquals(400, times.times("late", V100).computeMs(), 0);
    times.observe("late", V100, 800); // and goes on from there: (400 * 3 + 800) / 4
    assertEquals(500, times.times("late", V100).computeMs(), 1e-9);
    assertEquals(Set.of("early", "late", "measured"), times.changedSince(-1).jobs().keySet());
  }

  @Test(timeout = 60_000)
  public void savedStateUnderAnotherModelIsTheJobsOwn() {
    times.seed(Map.of("a", List.of(new Measured("cnn", K80, 700, 0, 2))));
    times.addJob("a", null); // a state store that lost its tags
    assertEquals(700, times.times("a", K80).computeMs(), 0);
    assertEquals(TaskTimeSource.NO_MODEL,
        times.changedSince(-1).jobs().get("a").get(0).model());
  }
}
