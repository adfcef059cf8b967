package io.hare.core;

/**
 * Every {@code yarn.scheduler.hare.*} key with its {@code DEFAULT_} twin. The ResourceManager
 * plugin reads them from yarn-site.xml; the simulator reads the same keys (as {@code -D}
 * options), so one policy configuration drives both. Each key is documented in
 * {@code hare-default.xml}; {@code SchedulerKeysTest} keeps the two in sync.
 */
public final class SchedulerKeys {

  private SchedulerKeys() {}

  public static final String PREFIX = "yarn.scheduler.hare.";

  /** Policy by short name (hare, hlas, ...) or fully qualified class name. */
  public static final String POLICY = PREFIX + "policy";
  public static final String DEFAULT_POLICY = "hare";

  /** Seed for the policy's tie breaking. */
  public static final String SEED = PREFIX + "seed";
  public static final long DEFAULT_SEED = 0L;

  // --- hare (Algorithm 1 and our extensions) ---

  // --- hlas ---

  /**
   * HLAS aging: a job's priority key is its weighted attained service (GPU-ms on the cluster's
   * average GPU per unit of weight) plus this rate times its arrival time (ms); lower goes first.
   * 0 is pure least attained service; a job that arrives more than (service / rate) ms after
   * another cannot pass it.
   */
  public static final String HLAS_AGING_RATE = PREFIX + "hlas.aging-rate";
  public static final double DEFAULT_HLAS_AGING_RATE = 0.1;

  /** Whether a task declines a slow GPU type when a faster one frees soon enough. */
  public static final String HLAS_SLOW_TYPE_WAIT_ENABLED = PREFIX + "hlas.slow-type-wait.enabled";
  public static final boolean DEFAULT_HLAS_SLOW_TYPE_WAIT_ENABLED = true;

  /** A task declines a slow type only if waiting finishes it more than (1 + margin) x sooner. */
  public static final String HLAS_SLOW_TYPE_WAIT_MARGIN = PREFIX + "hlas.slow-type-wait.margin";
  public static final double DEFAULT_HLAS_SLOW_TYPE_WAIT_MARGIN = 1.0;

  // --- baselines ---
}
