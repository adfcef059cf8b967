package io.hare.example;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import java.util.List;
import org.junit.Test;

/** The maths on cases small enough to check by hand. */
public class SoftmaxRegressionTest {

  /** Two classes, one feature: (x=2, y=0) and (x=-1, y=1). */
  private static final Dataset TWO = new Dataset(2, new double[][] {{2}, {-1}}, new int[] {0, 1});

  private static Model model(double... w) {
    return new Model(0, 2, 1, w);
  }

  @Test(timeout = 60_000)
  public void batchesWalkThroughTheDataAndWrap() {
    assertArrayEquals(new int[] {0, 1, 2, 3}, SoftmaxRegression.batch(0, 0, 2, 4, 10));
    assertArrayEquals(new int[] {4, 5, 6, 7}, SoftmaxRegression.batch(0, 1, 2, 4, 10));
    assertArrayEquals(new int[] {8, 9, 0, 1}, SoftmaxRegression.batch(1, 0, 2, 4, 10));
    assertArrayEquals(new int[] {2, 3, 4, 5}, SoftmaxRegression.batch(1, 1, 2, 4, 10));
    // No int overflow far into a long job.
    assertArrayEquals(new int[] {6, 7}, SoftmaxRegression.batch(1_000_000_000, 3, 4, 2, 10));
  }

  @Test(timeout = 60_000)
  public void gradientAtZeroModel() {
    // p = (1/2, 1/2) for both examples. Example 1 (y=0): error (-1/2, 1/2) times (x=2, bias 1);
    // example 2 (y=1): error (1/2, -1/2) times (x=-1, bias 1). Sum (-1.5, 0, 1.5, 0), mean /2.
    Gradient g = SoftmaxRegression.gradient(model(0, 0, 0, 0), TWO, new int[] {0, 1}, 3, 5);
    assertArrayEquals(new double[] {-0.75, 0, 0.75, 0}, g.values(), 0);
    assertEquals(Math.log(2), g.batchLoss(), 1e-15);
    assertEquals(0, g.round());
    assertEquals(3, g.taskIndex());
    assertEquals(5, g.tasksPerRound());
  }

  @Test(timeout = 60_000)
  public void gradientAndLossAtAModelWithBias() {
    // Class 0 has bias ln 3, class 1 nothing: p = (3/4, 1/4) whatever x. For x=-1, y=1:
    // loss ln 4, error (3/4, -3/4) times (x=-1, bias 1).
    Model m = model(0, Math.log(3), 0, 0);
    Gradient g = SoftmaxRegression.gradient(m, TWO, new int[] {1}, 0, 1);
    assertArrayEquals(new double[] {-0.75, 0.75, 0.75, -0.75}, g.values(), 1e-15);
    assertEquals(Math.log(4), g.batchLoss(), 1e-15);
    // Whole data set: example 1 has y=0 with p = 3/4.
    assertEquals((Math.log(4.0 / 3) + Math.log(4)) / 2, SoftmaxRegression.loss(m, TWO), 1e-15);
  }

  @Test(timeout = 60_000)
  public void hugeLogitsGiveAFiniteLoss() {
    Model m = model(0, 1000, 0, -1000); // p(y=1) = e^-2000 underflows; its log does not
    assertEquals(2000.0, SoftmaxRegression.gradient(m, TWO, new int[] {1}, 0, 1).batchLoss(),
        1e-9);
  }

  @Test(timeout = 60_000)
  public void stepAveragesAndDescends() {
    Model m0 = model(0, 0, 0, 0);
    Gradient a = grad(-0.75, 0, 0.75, 0);
    Gradient b = grad(0.25, 1, -0.25, -1);
    // mean (-0.25, 0.5, 0.25, -0.5), times rate 0.5, subtracted.
    Model m1 = SoftmaxRegression.step(m0, List.of(a, b), 0.5);
    assertArrayEquals(new double[] {0.125, -0.25, -0.125, 0.25}, m1.weights(), 0);
    assertEquals(1, m1.round());
  }

  @Test(timeout = 60_000)
  public void stepSumsInTheGivenOrder() {
    // 1e16 + 1 rounds back to 1e16 (the spacing there is 2), so the order is visible in the
    // bits: this is why the sync step reads the gradients in task-index order.
    Gradient big = grad(1e16, 0, 0, 0);
    Gradient one = grad(1, 0, 0, 0);
    Gradient minus = grad(-1e16, 0, 0, 0);
    Model m0 = model(0, 0, 0, 0);
    assertEquals(0.0, SoftmaxRegression.step(m0, List.of(big, one, minus), 1).weights()[0], 0);
    assertEquals(-1.0 / 3,
        SoftmaxRegression.step(m0, List.of(big, minus, one), 1).weights()[0], 0);
  }

  @Test(timeout = 60_000)
  public void meanBatchLoss() {
    Gradient a = new Gradient(0, 0, 2, 2, 1, 1.0, new double[4]);
    Gradient b = new Gradient(0, 1, 2, 2, 1, 2.0, new double[4]);
    assertEquals(1.5, SoftmaxRegression.meanBatchLoss(List.of(a, b)), 0);
  }

  @Test(timeout = 60_000)
  public void generatedDataIsBalancedAndSeeded() {
    JobConfig c = new JobConfig(5, 3, 4, 10, 2, 0.1);
    Dataset d = Dataset.generate(c);
    assertArrayEquals(new int[] {0, 1, 2, 3, 0, 1, 2, 3, 0, 1}, d.y());
    assertEquals(3, d.features());
    assertArrayEquals(d.encode(), Dataset.generate(c).encode());
    assertNotEquals(d.x()[0][0], Dataset.generate(new JobConfig(6, 3, 4, 10, 2, 0.1)).x()[0][0]);
  }

  private static Gradient grad(double... v) {
    return new Gradient(0, 0, 1, 2, 1, 0, v);
  }
}
