package io.hare.example;

import java.util.List;

/**
 * The maths of the example job, shared by the task, the sync step and the reference trainer so
 * that they compute the same doubles: softmax regression trained by synchronous mini-batch SGD.
 *
 * <p>Determinism across processes and machines: plain double arithmetic (IEEE, strict since
 * Java 17) in a fixed loop order, no parallel streams, no {@code Math.fma}, and
 * {@link StrictMath#exp}/{@link StrictMath#log} (fdlibm, bit-for-bit the same on every JVM,
 * unlike {@code Math}'s platform intrinsics). So a task computes the same gradient on any node,
 * and k tasks plus a sync give the model the single-process reference gives.
 */
public final class SoftmaxRegression {

  private SoftmaxRegression() {
  }

  /**
   * The examples of task {@code i} of round {@code r} with k tasks per round: the slice
   * {@code [(r*k + i) * B, +B)} of the data set, wrapping modulo N. Consecutive tasks and rounds
   * walk through the data set as one epoch after another.
   */
  public static int[] batch(int round, int taskIndex, int tasksPerRound, int batchSize, int n) {
    long start = ((long) round * tasksPerRound + taskIndex) * batchSize % n;
    int[] idx = new int[batchSize];
    for (int j = 0; j < batchSize; j++) {
      idx[j] = (int) ((start + j) % n);
    }
    return idx;
  }

  /**
   * The mean cross-entropy gradient over examples {@code idx} at model {@code m}, and their mean
   * loss, as task {@code taskIndex} of k in the model's round.
   */
  public static Gradient gradient(Model m, Dataset d, int[] idx, int taskIndex,
      int tasksPerRound) {
    int f = m.features();
    int c = m.classes();
    double[] g = new double[m.weights().length];
    double[] p = new double[c];
    double lossSum = 0;
    for (int n : idx) {
      double[] x = d.x()[n];
      lossSum += probabilities(m, x, d.y()[n], p);
      for (int k = 0; k < c; k++) {
        double err = p[k] - (k == d.y()[n] ? 1.0 : 0.0);
        int row = k * (f + 1);
        for (int j = 0; j < f; j++) {
          g[row + j] += err * x[j];
        }
        g[row + f] += err;
      }
    }
    for (int i = 0; i < g.length; i++) {
      g[i] = g[i] / idx.length;
    }
    return new Gradient(m.round(), taskIndex, tasksPerRound, c, f, lossSum / idx.length, g);
  }

  /** The mean cross-entropy of {@code m} over the whole data set. */
  public static double loss(Model m, Dataset d) {
    double[] p = new double[m.classes()];
    double sum = 0;
    for (int n = 0; n < d.size(); n++) {
      sum += probabilities(m, d.x()[n], d.y()[n], p);
    }
    return sum / d.size();
  }

  /**
   * One SGD step: the gradients summed in list order (the caller passes them in task-index
   * order), divided by their number, times {@code learningRate}, subtracted from {@code m}.
   */
  public static Model step(Model m, List<Gradient> inTaskIndexOrder, double learningRate) {
    double[] sum = new double[m.weights().length];
    for (Gradient g : inTaskIndexOrder) {
      double[] v = g.values();
      for (int i = 0; i < sum.length; i++) {
        sum[i] += v[i];
      }
    }
    int k = inTaskIndexOrder.size();
    double[] w = new double[sum.length];
    for (int i = 0; i < w.length; i++) {
      w[i] = m.weights()[i] - learningRate * (sum[i] / k);
    }
    return new Model(m.round() + 1, m.classes(), m.features(), w);
  }

  /** The mean of the batch losses in list order (the loss the round's tasks saw). */
  public static double meanBatchLoss(List<Gradient> inTaskIndexOrder) {
    double sum = 0;
    for (Gradient g : inTaskIndexOrder) {
      sum += g.batchLoss();
    }
    return sum / inTaskIndexOrder.size();
  }

  /**
   * Fills {@code p} with the class probabilities of {@code x} and returns the example's loss
   * {@code -log p[y]}, computed stably (logits shifted by their maximum).
   */
  private static double probabilities(Model m, double[] x, int y, double[] p) {
    int f = m.features();
    double[] w = m.weights();
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < p.length; k++) {
      int row = k * (f + 1);
      double z = w[row + f];
      for (int j = 0; j < f; j++) {
        z += w[row + j] * x[j];
      }
      p[k] = z;
      max = Math.max(max, z);
    }
    double shiftedY = p[y] - max;
    double norm = 0;
    for (int k = 0; k < p.length; k++) {
      p[k] = StrictMath.exp(p[k] - max);
      norm += p[k];
    }
    double logPy = shiftedY - StrictMath.log(norm);
    for (int k = 0; k < p.length; k++) {
      p[k] = p[k] / norm;
    }
    return -logPy;
  }
}
