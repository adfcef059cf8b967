package io.hare.yarn.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;

/**
 * Corrects an AM's GPU asks for the containers the same allocate call hands it. An ask is an
 * absolute count the AM computed before it saw this call's response, so it still counts the tasks
 * of the containers the scheduler allocated since the AM's last call; taken as it is, it would
 * put those tasks back as pending and the scheduler would allocate them a second time (YARN-1902:
 * AMRMClient over-allocates). The Hare AM releases such surplus containers, but each holds a GPU
 * for an AM heartbeat and shows the policy a task that never ran.
 *
 * <p>Only off-switch ({@code *}) GPU asks are corrected, per priority and allocation request id;
 * other asks go to YARN unchanged.
 */
final class StaleAsks {

  private record Key(Priority priority, long allocationRequestId) {}

  private StaleAsks() {}

  /**
   * {@code ask} with each GPU ask lowered by the GPU containers of its key in {@code returned}
   * (never below 0).
   */
  static List<ResourceRequest> correct(List<ResourceRequest> ask, List<Container> returned) {
    if (ask.isEmpty() || returned.isEmpty()) {
      return ask;
    }
    Map<Key, Integer> handedOut = new HashMap<>();
    for (Container c : returned) {
      if (!ContainerPlacer.isNonGpu(c.getResource())) {
        handedOut.merge(new Key(c.getPriority(), c.getAllocationRequestId()), 1, Integer::sum);
      }
    }
    if (handedOut.isEmpty()) {
      return ask;
    }
    List<ResourceRequest> out = new ArrayList<>(ask.size());
    for (ResourceRequest r : ask) {
      Integer n = ResourceRequest.ANY.equals(r.getResourceName())
          && !ContainerPlacer.isNonGpu(r.getCapability())
          ? handedOut.get(new Key(r.getPriority(), r.getAllocationRequestId())) : null;
      if (n == null) {
        out.add(r);
      } else {
        ResourceRequest fixed = ResourceRequest.clone(r);
        fixed.setNumContainers(Math.max(0, r.getNumContainers() - n));
        out.add(fixed);
      }
    }
    return out;
  }
}
