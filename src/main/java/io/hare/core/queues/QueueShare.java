package io.hare.core.queues;

import io.hare.core.GpuType;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One queue's share of the GPUs, from
 * {@code yarn.scheduler.hare.queue.<name>.{guaranteed,maximum}-gpu-share} and
 * {@code guaranteed-gpu-share.<type>}. A queue is guaranteed either a share of the whole fleet
 * or shares of some GPU types ({@link #perType}), never both. A share becomes a count of GPUs by
 * rounding down, so the guarantees never promise more GPUs than the fleet (or the type) has and
 * a maximum is never passed. The maximum is always of the whole fleet.
 *
 * @param name the queue's name
 * @param guaranteedShare GPUs of any type the queue gets first when it has tasks waiting, in
 *     [0, 1]; 0 for a queue with {@code typeShares}
 * @param maximumShare GPUs the queue may hold at most, borrowed ones included, in [0, 1]
 * @param typeShares per GPU type, the share of that type's GPUs the queue gets first when it has
 *     tasks waiting that can run there, each in [0, 1]; empty for a fleet guarantee
 */
public record QueueShare(String name, double guaranteedShare, double maximumShare,
    Map<GpuType, Double> typeShares) {

  public QueueShare {
    typeShares = Collections.unmodifiableMap(new TreeMap<>(typeShares));
  }

  /** A guarantee of the whole fleet's GPUs. */
  public QueueShare(String name, double guaranteedShare, double maximumShare) {
    this(name, guaranteedShare, maximumShare, Map.of());
  }

  /** The one queue of a configuration without queues: every GPU. */
  public static QueueShare whole(String name) {
    return new QueueShare(name, 1.0, 1.0);
  }

  /** Whether the guarantee is of GPU types rather than of the whole fleet. */
  public boolean perType() {
    return !typeShares.isEmpty();
  }

  /** Guaranteed GPUs of any type in a fleet of {@code gpus}; 0 for a {@link #perType} queue. */
  public int guaranteedGpus(int gpus) {
    return (int) Math.floor(guaranteedShare * gpus + 1e-9);
  }

  /** Guaranteed GPUs of {@code type}, of which the cluster has {@code gpus}. */
  public int guaranteedGpus(GpuType type, int gpus) {
    return (int) Math.floor(typeShares.getOrDefault(type, 0.0) * gpus + 1e-9);
  }

  /**
   * Every GPU the queue is guaranteed on a cluster with {@code counts} GPUs per type: of the
   * fleet, or the sum over its types (a type the cluster lacks counts 0).
   */
  public int guaranteedGpus(Map<GpuType, Integer> counts) {
    if (!perType()) {
      return guaranteedGpus(counts.values().stream().mapToInt(Integer::intValue).sum());
    }
    int n = 0;
    for (Map.Entry<GpuType, Integer> e : counts.entrySet()) {
      n += guaranteedGpus(e.getKey(), e.getValue());
    }
    return n;
  }

  /** Most GPUs of a fleet of {@code gpus} the queue may hold. */
  public int maximumGpus(int gpus) {
    return (int) Math.floor(maximumShare * gpus + 1e-9);
  }
}
