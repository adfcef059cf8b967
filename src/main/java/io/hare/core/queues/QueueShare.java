package io.hare.core.queues;

/**
 * One queue's share of the fleet's GPUs, from
 * {@code yarn.scheduler.hare.queue.<name>.{guaranteed,maximum}-gpu-share}. A share becomes a
 * count of GPUs by rounding down, so the guarantees never promise more GPUs than the fleet has
 * and a maximum is never passed.
 *
 * @param name the queue's name
 * @param guaranteedShare GPUs the queue gets first when it has tasks waiting, in [0, 1]
 * @param maximumShare GPUs the queue may hold at most, borrowed ones included, in [0, 1]
 */
public record QueueShare(String name, double guaranteedShare, double maximumShare) {

  /** The one queue of a configuration without queues: every GPU. */
  public static QueueShare whole(String name) {
    return new QueueShare(name, 1.0, 1.0);
  }

  /** Guaranteed GPUs of a fleet of {@code gpus}. */
  public int guaranteedGpus(int gpus) {
    return (int) Math.floor(guaranteedShare * gpus + 1e-9);
  }

  /** Most GPUs of a fleet of {@code gpus} the queue may hold. */
  public int maximumGpus(int gpus) {
    return (int) Math.floor(maximumShare * gpus + 1e-9);
  }
}
