package io.hare.yarn.scheduler;

/**
 * One queue's settings, from {@code yarn.scheduler.hare.queue.<name>.*} ({@link QueueConfig}).
 * Shares are of the fleet's GPUs; a share becomes a count of GPUs by rounding down, so the
 * guarantees never promise more GPUs than the fleet has and a maximum is never passed.
 *
 * @param name the queue's name, as {@code -queue} names it
 * @param guaranteedShare GPUs the queue gets first when it has tasks waiting
 * @param maximumShare GPUs the queue may hold at most, borrowed ones included
 * @param acls who may submit and administer
 * @param maximumApplications applications it holds at most, pending and running
 * @param userLimit running applications per user at most; -1: no limit
 * @param amShare share of the queue's maximum of the cluster's memory and vcores its AMs may hold
 */
record QueueSettings(String name, double guaranteedShare, double maximumShare, QueueAcls acls,
    int maximumApplications, int userLimit, double amShare) {

  /** The one queue of a configuration without queues: everything, open to everyone. */
  static QueueSettings whole(String name) {
    return new QueueSettings(name, 1.0, 1.0, QueueAcls.open(), Integer.MAX_VALUE, -1, 1.0);
  }

  /** Guaranteed GPUs of a fleet of {@code gpus}. */
  int guaranteedGpus(int gpus) {
    return (int) Math.floor(guaranteedShare * gpus + 1e-9);
  }

  /** Most GPUs of a fleet of {@code gpus} the queue may hold. */
  int maximumGpus(int gpus) {
    return (int) Math.floor(maximumShare * gpus + 1e-9);
  }
}
