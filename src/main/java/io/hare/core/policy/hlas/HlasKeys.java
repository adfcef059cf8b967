package io.hare.core.policy.hlas;

import io.hare.core.SchedulerKeys;

/**
 * The {@code yarn.scheduler.hare.hlas.*} keys of the hlas policy with their {@code DEFAULT_}
 * twins, beside the code that reads them; documented in {@code hare-default.xml} and known to
 * the unknown-key check through {@link io.hare.core.policy.Policies#keyClasses()}.
 */
public final class HlasKeys {

  private HlasKeys() {}

  /** Where the family's keys start; not itself a key (and so not public). */
  private static final String ROOT = SchedulerKeys.PREFIX + "hlas.";

  /**
   * HLAS aging: a job's priority key is its weighted attained service (GPU-ms on the cluster's
   * average GPU per unit of weight) plus this rate times its arrival time (ms); lower goes first.
   * 0 is pure least attained service; a job that arrives more than (service / rate) ms after
   * another cannot pass it.
   */
  public static final String AGING_RATE = ROOT + "aging-rate";
  public static final double DEFAULT_AGING_RATE = 0.1;

  /** Whether a task declines a slow GPU type when a faster one frees soon enough. */
  public static final String SLOW_TYPE_WAIT_ENABLED = ROOT + "slow-type-wait.enabled";
  public static final boolean DEFAULT_SLOW_TYPE_WAIT_ENABLED = true;

  /** A task declines a slow type only if waiting finishes it more than (1 + margin) x sooner. */
  public static final String SLOW_TYPE_WAIT_MARGIN = ROOT + "slow-type-wait.margin";
  public static final double DEFAULT_SLOW_TYPE_WAIT_MARGIN = 1.0;
}
