package io.hare.sim;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import java.util.List;

/**
 * Tasks a host starts by its own rule rather than by the policy's offer: on YARN, a warm
 * container that goes on with its job's next task the moment its task ends. The simulator starts
 * them at each instant right after the instant's events, before the policy re-plans and before
 * the offer (and outside the queues' guarantees, which count them as running), as the
 * ResourceManager does: a replay ({@code io.hare.demo.Replay}) takes the ones its run recorded as
 * given. A plain simulation has none.
 */
@FunctionalInterface
public interface HostStarts {

  HostStarts NONE = (cluster, free, nowMs) -> List.of();

  /**
   * The tasks to start now on {@code free} GPUs, each of a job with a ready task not already
   * given in the answer; the simulator checks them as it checks a policy's answer.
   */
  List<Assignment> startsAt(ClusterView cluster, List<? extends GpuView> free, long nowMs);
}
