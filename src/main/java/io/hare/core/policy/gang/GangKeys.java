package io.hare.core.policy.gang;

import io.hare.core.SchedulerKeys;

/**
 * The keys of the gang baselines that have any ({@code yarn.scheduler.hare.tiresias.*},
 * {@code yarn.scheduler.hare.allox.*}) with their {@code DEFAULT_} twins, beside the code that
 * reads them; documented in {@code hare-default.xml} and known to the unknown-key check through
 * {@link io.hare.core.policy.Policies#keyClasses()}.
 */
public final class GangKeys {

  private GangKeys() {}

  /**
   * tiresias-las: attained-service thresholds between its priority queues, in GPU-seconds,
   * comma-separated and increasing; n thresholds make n+1 queues.
   */
  public static final String TIRESIAS_QUEUE_THRESHOLDS_GPU_S =
      SchedulerKeys.PREFIX + "tiresias.queue-thresholds-gpu-s";
  public static final String DEFAULT_TIRESIAS_QUEUE_THRESHOLDS_GPU_S = "3250,7200";

  /**
   * tiresias-las: PromoteKnob, the starvation guard; a waiting job returns to the top queue after
   * waiting this many times its executed time. 0 turns the guard off.
   */
  public static final String TIRESIAS_PROMOTE_KNOB =
      SchedulerKeys.PREFIX + "tiresias.promote-knob";
  public static final double DEFAULT_TIRESIAS_PROMOTE_KNOB = 8.0;

  /**
   * allox: share of the waiting jobs, oldest first, the matching considers (never fewer than the
   * free GPUs), in (0, 1].
   */
  public static final String ALLOX_ALPHA = SchedulerKeys.PREFIX + "allox.alpha";
  public static final double DEFAULT_ALLOX_ALPHA = 0.3;
}
