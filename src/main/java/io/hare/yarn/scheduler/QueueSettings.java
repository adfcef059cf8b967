package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.queues.QueueShare;
import java.util.Map;

/**
 * One queue's settings, from {@code yarn.scheduler.hare.queue.<name>.*} ({@link QueueConfig}):
 * its GPU shares ({@link QueueShare}, what the simulator reads too) and what only the RM
 * enforces.
 *
 * @param name the queue's name, as {@code -queue} names it
 * @param guaranteedShare GPUs the queue gets first when it has tasks waiting
 * @param maximumShare GPUs the queue may hold at most, borrowed ones included
 * @param acls who may submit and administer
 * @param maximumApplications applications it holds at most, pending and running
 * @param userLimit running applications per user at most; -1: no limit
 * @param amShare share of the queue's maximum of the cluster's memory and vcores its AMs may hold
 * @param typeShares per GPU type, the share of its GPUs guaranteed instead of a fleet share;
 *     empty for a fleet guarantee
 */
record QueueSettings(String name, double guaranteedShare, double maximumShare, QueueAcls acls,
    int maximumApplications, int userLimit, double amShare, Map<GpuType, Double> typeShares) {

  QueueSettings {
    typeShares = Map.copyOf(typeShares);
  }

  /** A queue guaranteed a share of the whole fleet. */
  QueueSettings(String name, double guaranteedShare, double maximumShare, QueueAcls acls,
      int maximumApplications, int userLimit, double amShare) {
    this(name, guaranteedShare, maximumShare, acls, maximumApplications, userLimit, amShare,
        Map.of());
  }

  /** The one queue of a configuration without queues: everything, open to everyone. */
  static QueueSettings whole(String name) {
    return new QueueSettings(name, 1.0, 1.0, QueueAcls.open(), Integer.MAX_VALUE, -1, 1.0);
  }

  /** The queue's GPU shares alone. */
  QueueShare share() {
    return new QueueShare(name, guaranteedShare, maximumShare, typeShares);
  }

  /** Guaranteed GPUs of a fleet of {@code gpus}; 0 for a queue guaranteed GPU types. */
  int guaranteedGpus(int gpus) {
    return share().guaranteedGpus(gpus);
  }

  /** Every guaranteed GPU on a cluster with {@code counts} GPUs per type. */
  int guaranteedGpus(Map<GpuType, Integer> counts) {
    return share().guaranteedGpus(counts);
  }

  /** Most GPUs of a fleet of {@code gpus} the queue may hold. */
  int maximumGpus(int gpus) {
    return share().maximumGpus(gpus);
  }
}
