package io.hare.core;

/**
 * Time of one task of a model on one GPU type.
 *
 * @param computeMs time the task holds the GPU (forward, backward, gradient), &gt; 0
 * @param syncMs gradient push and model pull after compute; it does not hold the GPU but gates the
 *     job's next round, &gt;= 0
 */
public record TaskTimes(double computeMs, double syncMs) {

  public TaskTimes {
    if (!(computeMs > 0) || Double.isInfinite(computeMs)) {
      throw new IllegalArgumentException("compute time must be finite and > 0 ms, got " + computeMs);
    }
    if (!(syncMs >= 0) || Double.isInfinite(syncMs)) {
      throw new IllegalArgumentException("sync time must be finite and >= 0 ms, got " + syncMs);
    }
  }

  /** Compute plus sync: the shortest a round can take on this type. */
  public double roundMs() {
    return computeMs + syncMs;
  }
}
