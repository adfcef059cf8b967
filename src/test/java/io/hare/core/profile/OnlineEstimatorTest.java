package io.hare.core.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The online estimate: a mean with the prior as pseudo-samples, then a moving average. */
public class OnlineEstimatorTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");
  private static final GpuType T4 = GpuType.of("t4");

  /** Prior: m on v100 computes 100 ms and syncs 20 ms; nothing on k80. */
  private static final ProfileTable PRIOR = ProfileTable.builder()
      .put("m", "v100", 100, 20).put("other", "v100", 500, 5).build();

  @Test(timeout = 60_000)
  public void priorCountsAsWeightSamplesThenMovingAverageAfterWindow() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 2, 4);
    assertEquals(new TaskTimes(100, 20), e.times("m", V100));
    assertEquals(2, e.confidence("m", V100), 0);
    // mean of {100, 100, 130} = 110
    e.observe("m", V100, 130);
    assertEquals(110, e.times("m", V100).computeMs(), 1e-9);
    assertEquals(3, e.confidence("m", V100), 0);
    // mean of {100, 100, 130, 150} = 120: four samples, the window is full
    e.observe("m", V100, 150);
    assertEquals(120, e.times("m", V100).computeMs(), 1e-9);
    assertEquals(4, e.confidence("m", V100), 0);
    // from now on 1/4 of the gap: 120 + (200 - 120) / 4 = 140 (a mean would give 136)
    e.observe("m", V100, 200);
    assertEquals(140, e.times("m", V100).computeMs(), 1e-9);
    assertEquals(4, e.confidence("m", V100), 0);
    // 140 + (60 - 140) / 4 = 120
    e.observe("m", V100, 60);
    assertEquals(120, e.times("m", V100).computeMs(), 1e-9);
    // the host never measures sync: it stays as in the prior
    assertEquals(20, e.times("m", V100).syncMs(), 0);
    // other models are untouched
    assertEquals(new TaskTimes(500, 5), e.times("other", V100));
  }

  @Test(timeout = 60_000)
  public void zeroPriorWeightTrustsTheFirstSample() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 0, 3);
    assertEquals(0, e.confidence("m", V100), 0);
    e.observe("m", V100, 300);
    assertEquals(new TaskTimes(300, 20), e.times("m", V100));
    // mean of {300, 330}
    e.observe("m", V100, 330);
    assertEquals(315, e.times("m", V100).computeMs(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void windowOfOneFollowsTheLastSample() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 3, 1);
    e.observe("m", V100, 130);
    assertEquals(130, e.times("m", V100).computeMs(), 1e-9);
    e.observe("m", V100, 70);
    assertEquals(70, e.times("m", V100).computeMs(), 1e-9);
    assertEquals(1, e.confidence("m", V100), 0);
  }

  @Test(timeout = 60_000)
  public void priorHeavierThanTheWindowIsWorthAWindow() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 10, 4);
    // the prior can never weigh more than the window it is averaged in
    assertEquals(4, e.confidence("m", V100), 0);
    // 100 + (180 - 100) / 4 = 120
    e.observe("m", V100, 180);
    assertEquals(120, e.times("m", V100).computeMs(), 1e-9);
    assertEquals(4, e.confidence("m", V100), 0);
  }

  @Test(timeout = 60_000)
  public void unknownTypeBecomesKnownAfterOneSample() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 5, 10);
    assertNull(e.times("m", K80));
    assertNull(e.times("nowhere", V100));
    assertEquals(0, e.confidence("m", K80), 0);
    e.observe("m", K80, 640);
    // no prior: the sample is the estimate, and sync is 0 since nothing ever said otherwise
    assertEquals(new TaskTimes(640, 0), e.times("m", K80));
    assertEquals(1, e.confidence("m", K80), 0);
    // then a plain mean: (640 + 700) / 2
    e.observe("m", K80, 700);
    assertEquals(670, e.times("m", K80).computeMs(), 1e-9);
    assertEquals(2, e.confidence("m", K80), 0);
  }

  @Test(timeout = 60_000)
  public void aTypeNotMeasuredYetKeepsTheProfilesSpeedRelativeToTheMeasuredOnes() {
    // the tarball's resnet18 profile; its tasks really take about 12 s on v100
    ProfileTable prior = ProfileTable.builder().put("m", "v100", 210, 40)
        .put("m", "t4", 520, 40).put("other", "t4", 300, 5).build();
    OnlineEstimator e = new OnlineEstimator(prior, 3, 20);
    for (int i = 0; i < 3; i++) {
      e.observe("m", V100, 12_000);
    }
    double v100 = e.times("m", V100).computeMs();
    assertEquals("(3 x 210 + 3 x 12000) / 6", 6105, v100, 1e-9);
    TaskTimes t4 = e.times("m", T4);
    assertEquals("t4 stays 520 / 210 times v100", 520 * v100 / 210, t4.computeMs(), 1e-6);
    assertEquals("sync is not measured", 40, t4.syncMs(), 0);
    assertEquals("another model is not scaled", 300, e.times("other", T4).computeMs(), 0);
  }

  @Test(timeout = 60_000)
  public void severalMeasuredTypesScaleByTheirWeightedGeometricMean() {
    ProfileTable prior = ProfileTable.builder().put("m", "v100", 100, 0).put("m", "t4", 200, 0)
        .put("m", "k80", 400, 0).build();
    OnlineEstimator e = new OnlineEstimator(prior, 0, 20);
    e.observe("m", V100, 800); // 8 times its prior, 1 sample
    e.observe("m", T4, 400); // 2 times its prior, 3 samples
    e.observe("m", T4, 400);
    e.observe("m", T4, 400);
    // exp((1 x ln 8 + 3 x ln 2) / 4) = 2^(6/4)
    assertEquals(400 * Math.pow(2, 1.5), e.times("m", K80).computeMs(), 1e-6);
    assertEquals("a measured type keeps its own estimate", 800, e.times("m", V100).computeMs(),
        1e-9);
  }

  @Test(timeout = 60_000)
  public void badSamplesAreIgnored() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 2, 4);
    for (double bad : new double[] {0, -5, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY}) {
      e.observe("m", V100, bad);
      e.observe("m", K80, bad);
    }
    assertEquals(new TaskTimes(100, 20), e.times("m", V100));
    assertEquals(2, e.confidence("m", V100), 0);
    assertNull("a bad sample must not make a type usable", e.times("m", K80));
    assertEquals(0, e.confidence("m", K80), 0);
  }

  @Test(timeout = 60_000)
  public void badArgumentsAreRefused() {
    for (double w : new double[] {-1, Double.NaN}) {
      try {
        new OnlineEstimator(PRIOR, w, 4);
        fail("prior weight " + w + " accepted");
      } catch (IllegalArgumentException e) {
        assertEquals("prior weight must be >= 0, got " + w, e.getMessage());
      }
    }
    try {
      new OnlineEstimator(PRIOR, 1, 0);
      fail("window 0 accepted");
    } catch (IllegalArgumentException e) {
      assertEquals("window must be >= 1, got 0", e.getMessage());
    }
  }

  /**
   * An estimator restored from another's measured state answers exactly as the original on every
   * type, measured or not (the unmeasured ones follow the measured ones by a sum over them), and
   * the two stay equal through further observations. Sixteen types, so the estimates' table grows
   * past its first size, measured in an order that is not the table's.
   */
  @Test(timeout = 60_000)
  public void aRestoredEstimatorAnswersAndGoesOnExactlyAsTheOriginal() {
    ProfileTable.Builder b = ProfileTable.builder();
    List<GpuType> types = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      types.add(GpuType.of("t" + i));
      if (i % 5 != 4) { // some types unprofiled: usable once measured
        b.put("m", "t" + i, 100 + 37 * i, i);
      }
    }
    ProfileTable prior = b.build();
    OnlineEstimator original = new OnlineEstimator(prior, 1.5, 6);
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 200; i++) {
      original.observe("m", types.get(random.nextInt(13)), 50 + random.nextDouble() * 900);
    }
    OnlineEstimator restored = new OnlineEstimator(prior, 1.5, 6);
    restored.restore(original.measured());
    assertSameAnswers(types, original, restored);
    for (int i = 0; i < 100; i++) { // both go on: types measured before and new ones
      GpuType t = types.get(random.nextInt(16));
      double ms = 50 + random.nextDouble() * 900;
      original.observe("m", t, ms);
      restored.observe("m", t, ms);
      assertSameAnswers(types, original, restored);
    }
    assertEquals(original.measured(), restored.measured());
  }

  private static void assertSameAnswers(List<GpuType> types, OnlineEstimator a,
      OnlineEstimator b) {
    for (GpuType t : types) {
      assertEquals(t.name(), a.times("m", t), b.times("m", t)); // exact: records of doubles
      assertEquals(t.name(), a.confidence("m", t), b.confidence("m", t), 0);
    }
  }

  @Test(timeout = 60_000)
  public void restoreTakesAtMostTheWindowAndOnlyIntoAFreshEstimator() {
    OnlineEstimator e = new OnlineEstimator(PRIOR, 2, 4);
    e.restore(List.of(new OnlineEstimator.Measured("m", V100, 180, 20, 50)));
    assertEquals(new TaskTimes(180, 20), e.times("m", V100));
    assertEquals("a window shrunk since counts", 4, e.confidence("m", V100), 0);
    try {
      e.restore(List.of());
      fail("restored twice");
    } catch (IllegalStateException expected) {
      // the order of a second restore could not be the original's
    }
    try {
      new OnlineEstimator.Measured("m", V100, Double.NaN, 0, 1);
      fail("NaN accepted");
    } catch (IllegalArgumentException expected) {
      // a broken saved value is refused, not estimated from
    }
  }
}
