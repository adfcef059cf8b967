package io.hare.bench;

import java.util.Arrays;
import java.util.List;

/**
 * A distribution of durations in milliseconds: count, nearest-rank p50 and p99, maximum and
 * mean. All zero when there is no sample.
 */
public record Latency(int count, double p50Ms, double p99Ms, double maxMs, double meanMs) {

  public static final Latency NONE = new Latency(0, 0, 0, 0, 0);

  public static Latency ofNanos(long[] nanos) {
    if (nanos.length == 0) {
      return NONE;
    }
    long[] s = nanos.clone();
    Arrays.sort(s);
    double sum = 0;
    for (long n : s) {
      sum += n;
    }
    return new Latency(s.length, ms(rank(s, 0.50)), ms(rank(s, 0.99)), ms(s[s.length - 1]),
        sum / s.length / 1e6);
  }

  public static Latency ofNanos(List<Long> nanos) {
    return ofNanos(nanos.stream().mapToLong(Long::longValue).toArray());
  }

  private static long rank(long[] sorted, double q) {
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
