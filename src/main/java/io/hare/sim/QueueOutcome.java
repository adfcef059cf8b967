package io.hare.sim;

import java.util.Map;

/**
 * How one queue fared in a run.
 *
 * @param name the queue
 * @param guaranteedShare its guaranteed share of the fleet's GPUs; 0 for a queue guaranteed GPU
 *     types
 * @param guaranteedGpus its guarantee in GPUs (rounded down; per type, summed)
 * @param jobs jobs submitted to it
 * @param unfinishedJobs of those, jobs that did not finish
 * @param totalWeightedJctS sum over its finished jobs of weight x JCT, in seconds
 * @param guaranteeWaitS time during which the queue had tasks waiting while it held fewer GPUs
 *     than its guarantee, in seconds
 * @param guaranteeShortGpuS over that time, the GPUs it lacked (its guarantee less what it held,
 *     at most its waiting tasks), in GPU-seconds; this includes GPUs that were free but that the
 *     policy left idle (held for a faster type, say)
 * @param guaranteeLentGpuS of those GPU-seconds, the ones other queues held above their own
 *     guarantees: the queue's guarantee lent out and not yet back at a task boundary
 * @param singleQueueTotalWeightedJctS the same jobs' total weighted JCT when the same policy
 *     runs the workload with one queue; NaN when not measured
 * @param guaranteedTypeShares per GPU type name, the share of that type's GPUs it is guaranteed
 *     instead of a share of the fleet; empty for a fleet guarantee. For such a queue the wait,
 *     short and lent figures are per type, summed: see {@link TypeAccounts}
 */
public record QueueOutcome(String name, double guaranteedShare, int guaranteedGpus, int jobs,
    long unfinishedJobs, double totalWeightedJctS, double guaranteeWaitS,
    double guaranteeShortGpuS, double guaranteeLentGpuS, double singleQueueTotalWeightedJctS,
    Map<String, Double> guaranteedTypeShares) {

  public QueueOutcome {
    guaranteedTypeShares = Map.copyOf(guaranteedTypeShares);
  }

  /** The same outcome beside its jobs' total weighted JCT with one queue. */
  public QueueOutcome withSingleQueue(double totalWeightedJctS) {
    return new QueueOutcome(name, guaranteedShare, guaranteedGpus, jobs, unfinishedJobs,
        this.totalWeightedJctS, guaranteeWaitS, guaranteeShortGpuS, guaranteeLentGpuS,
        totalWeightedJctS, guaranteedTypeShares);
  }
}
