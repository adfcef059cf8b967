package io.hare.yarn.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;

/**
 * The FIFO pass for non-GPU asks (ApplicationMasters first of all), visiting only the
 * applications that may have one instead of every application at every heartbeat: a few AM
 * containers wait at a time, while a cluster runs thousands of jobs whose asks are all GPU tasks.
 *
 * <p>An application is flagged when an allocate call brings a non-GPU ask, when its attempt is
 * added, and when YARN gives an ask back on its own (a container killed before its AM pulled
 * it). A heartbeat visits the flagged ones in application order, as the pass over every
 * application did, and keeps flagged those with asks still outstanding. The flag is cleared
 * before the asks are read, so an ask that arrives meanwhile (an AM RPC thread updates the asks
 * first, then flags) is never lost.
 */
final class NonGpuAsks {

  private final ConcurrentSkipListSet<ApplicationId> flagged = new ConcurrentSkipListSet<>();
  private final ContainerPlacer placer;

  NonGpuAsks(ContainerPlacer placer) {
    this.placer = placer;
  }

  /** The application may have non-GPU asks now. Any thread. */
  void flag(ApplicationId app) {
    flagged.add(app);
  }

  /** An allocate call updated the application's asks with {@code asks}. Any thread. */
  void asked(ApplicationId app, List<ResourceRequest> asks) {
    for (ResourceRequest r : asks) {
      if (ContainerPlacer.isNonGpu(r.getCapability())) {
        flagged.add(app);
        return;
      }
    }
  }

  /**
   * Places the flagged applications' non-GPU asks on {@code node}, FIFO, keeping
   * {@code reserve} free on it for its free GPUs (ApplicationMasters excepted).
   *
   * @return containers placed
   */
  List<RMContainer> place(Function<ApplicationId, HareAppAttempt> attempts,
      FiCaSchedulerNode node, Resource reserve, AmGate amLimit) {
    List<RMContainer> out = new ArrayList<>();
    for (ApplicationId id : new ArrayList<>(flagged)) {
      flagged.remove(id);
      HareAppAttempt a = attempts.apply(id);
      if (a == null || a.isStopped()) {
        continue;
      }
      out.addAll(placer.placeNonGpu(List.of(a), node, reserve, amLimit));
      if (ContainerPlacer.hasNonGpuAsk(a)) {
        flagged.add(id);
      }
    }
    return out;
  }

  /** Applications flagged now (tests). */
  int size() {
    return flagged.size();
  }
}
