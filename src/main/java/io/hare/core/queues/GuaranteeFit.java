package io.hare.core.queues;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the queues' guarantees fit the GPUs the cluster has. Each kind alone always fits: fleet
 * shares sum to at most 1 of the fleet and each type's shares to at most 1 of the type, and shares
 * round down ({@link QueueShares}). Queues of both kinds together are checked only here, once
 * the nodes have registered, because the file is read before the cluster's GPUs are known: 0.8 of
 * the fleet for one queue and every V100 for another can promise more GPUs than there are. Then
 * the per-type queues are offered their types first ({@link QueueGuarantees}) and the fleet
 * queues get what is left, less than they were promised.
 */
public final class GuaranteeFit {

  private GuaranteeFit() {}

  /**
   * What is promised beyond the cluster's GPUs, in words naming each queue's guaranteed GPUs;
   * empty when the guarantees fit (or the cluster has no GPUs yet).
   *
   * @param counts the cluster's GPUs per type
   */
  public static Optional<String> overcommit(QueueShares queues, Map<GpuType, Integer> counts) {
    int fleet = counts.values().stream().mapToInt(Integer::intValue).sum();
    if (fleet == 0 || !queues.perType()) {
      return Optional.empty();
    }
    int promised = 0;
    List<String> parts = new ArrayList<>();
    for (QueueShare q : queues.queues().values()) {
      int n = q.guaranteedGpus(counts);
      if (n == 0) {
        continue;
      }
      promised += n;
      parts.add(q.name() + " " + n + (q.perType() ? " (per type)" : " (of the fleet)"));
    }
    if (promised <= fleet) {
      return Optional.empty();
    }
    return Optional.of("the queues' GPU guarantees add up to " + promised + " GPUs on a cluster"
        + " of " + fleet + " (" + String.join(", ", parts) + "): per-type guarantees are served"
        + " first, so the queues guaranteed a share of the fleet get "
        + (promised - fleet) + " GPUs fewer than promised when every queue has tasks waiting;"
        + " lower a guaranteed-gpu-share and run yarn rmadmin -refreshQueues");
  }
}
