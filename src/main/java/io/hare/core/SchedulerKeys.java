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

  // --- baselines ---

  /**
   * tiresias-las: attained-service thresholds between its priority queues, in GPU-seconds,
   * comma-separated and increasing; n thresholds make n+1 queues.
   */
  public static final String TIRESIAS_QUEUE_THRESHOLDS_GPU_S =
      PREFIX + "tiresias.queue-thresholds-gpu-s";
  public static final String DEFAULT_TIRESIAS_QUEUE_THRESHOLDS_GPU_S = "3250,7200";

  /**
   * tiresias-las: PromoteKnob, the starvation guard; a waiting job returns to the top queue after
   * waiting this many times its executed time. 0 turns the guard off.
   */
  public static final String TIRESIAS_PROMOTE_KNOB = PREFIX + "tiresias.promote-knob";
  public static final double DEFAULT_TIRESIAS_PROMOTE_KNOB = 8.0;

  /**
   * allox: share of the waiting jobs, oldest first, the matching considers (never fewer than the
   * free GPUs), in (0, 1].
   */
  public static final String ALLOX_ALPHA = PREFIX + "allox.alpha";
  public static final double DEFAULT_ALLOX_ALPHA = 0.3;
}
