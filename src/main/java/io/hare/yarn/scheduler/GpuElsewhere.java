package io.hare.yarn.scheduler;

import io.hare.core.policy.Assignment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps GPU tasks off the nodes their AM blacklisted ({@code AMRMClient#updateBlacklist}: in
 * YARN, none of the application's containers goes there; the Hare AM blacklists a node where
 * its containers could not start or were lost). The policy sees one cluster for all jobs, so it
 * may give a job a GPU on such a node; the task then takes a free GPU of the same type on a node
 * the job may use, one that the same pass gives no other task, so the policy's choice of type
 * stands. With none, the task waits for a later pass, as when a container does not fit.
 */
final class GpuElsewhere {

  private static final Logger LOG = LoggerFactory.getLogger(GpuElsewhere.class);

  private GpuElsewhere() {}

  static boolean blacklisted(HareAppAttempt attempt, FiCaSchedulerNode node) {
    return SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG);
  }

  /** The GPUs a pass's assignments name. */
  static Set<String> given(List<Assignment> decided) {
    Set<String> ids = new HashSet<>();
    decided.forEach(a -> ids.add(a.gpuId()));
    return ids;
  }

  /**
   * A GPU for the task the policy put on {@code chosen}, whose node {@code attempt} blacklisted:
   * of {@code free} (the offer, in its order), the first of the same type, not in
   * {@code given}, on a node the attempt may use; null if none.
   */
  static YarnGpu instead(HareAppAttempt attempt, YarnGpu chosen, List<YarnGpu> free,
      Set<String> given, Function<NodeId, FiCaSchedulerNode> nodes) {
    for (YarnGpu g : free) {
      if (g.taken() || !g.type().equals(chosen.type()) || given.contains(g.id())) {
        continue;
      }
      FiCaSchedulerNode node = nodes.apply(g.nodeId());
      if (node != null && !blacklisted(attempt, node)) {
        LOG.debug("{} blacklisted {}: its task goes to {} instead of {}",
            attempt.getApplicationAttemptId(), chosen.nodeId(), g, chosen);
        return g;
      }
    }
    return null;
  }
}
