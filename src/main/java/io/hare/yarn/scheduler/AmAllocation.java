package io.hare.yarn.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * The part of an AM's allocate call that runs under its attempt's write lock
 * ({@link HareScheduler#allocate} takes the lock and says why): the containers made since the
 * AM's last call are pulled, its asks, blacklist and container updates applied
 * ({@link AmUpdates}), the parts that place asks told of the new ones, and the answer built with
 * the headroom and the containers Hare wants back.
 *
 * <p>Threading: AM RPC threads, under the attempt's write lock and not the scheduler's monitor;
 * what it tells the parts (asks, task boundaries) they take from any thread and read at the next
 * pass.
 */
final class AmAllocation {

  /** The answer to the AM, and whether its call parks a container (a pass then runs at once). */
  record Answer(Allocation allocation, boolean parking) {}

  private final Resource used;
  private final Supplier<Resource> cluster;
  private final NonGpuAsks nonGpuAsks;
  private final MultiGpuContainers multiGpu;
  private final GpuReserve gpuReserve;
  private final GpuTasks gpuTasks;
  private final NodeGpus nodeGpus;

  /**
   * @param used the scheduler's resources of live containers, for the headroom
   * @param cluster the cluster's resources now
   */
  AmAllocation(Resource used, Supplier<Resource> cluster, NonGpuAsks nonGpuAsks,
      MultiGpuContainers multiGpu, GpuReserve gpuReserve, GpuTasks gpuTasks, NodeGpus nodeGpus) {
    this.used = used;
    this.cluster = cluster;
    this.nonGpuAsks = nonGpuAsks;
    this.multiGpu = multiGpu;
    this.gpuReserve = gpuReserve;
    this.gpuTasks = gpuTasks;
    this.nodeGpus = nodeGpus;
  }

  /** The call of {@code attempt}'s AM, which is not stopped; its asks already normalized. */
  Answer apply(HareAppAttempt attempt, List<ResourceRequest> ask,
      List<String> blacklistAdditions, List<String> blacklistRemovals,
      ContainerUpdates updateRequests) {
    ApplicationId app = attempt.getApplicationId();
    // pulled before the asks are applied: the asks do not know of these containers yet
    List<Container> handedOut = attempt.pullNewlyAllocatedContainers();
    List<Container> promoted = attempt.pullPromoted(); // each took an ask, as handedOut did
    if (!ask.isEmpty()) {
      List<Container> taken = new ArrayList<>(handedOut);
      taken.addAll(promoted);
      attempt.updateResourceRequests(StaleAsks.correct(ask, taken));
      nonGpuAsks.asked(app, ask);
      multiGpu.asked(app, ask);
      for (ResourceRequest r : ask) {
        if (ContainerPlacer.isGpuAsk(r.getCapability())) {
          gpuReserve.asked(r.getCapability());
        }
      }
    }
    attempt.updateBlacklist(blacklistAdditions, blacklistRemovals);
    boolean parking = AmUpdates.apply(attempt, attempt.speaksHare(), updateRequests, gpuTasks);
    gpuTasks.asksChanged(app);
    Resource headroom = Resources.subtract(cluster.get(), used);
    attempt.setHeadroom(headroom);
    attempt.setApplicationHeadroomForMetrics(headroom);
    // warm containers the policy wants back, from a Hare AM only: a negotiable contract, which
    // the Hare AM honours at the end of the container's current task (see AmUpdates)
    Set<ContainerId> back = gpuTasks.revoked(attempt.getLiveContainersMap().keySet(),
        nodeGpus::draining);
    back.addAll(attempt.pullMarkedForPreemption());
    List<Container> parked = attempt.pullParked();
    return new Answer(new Allocation(handedOut, headroom, null, back.isEmpty() ? null : back,
        AmUpdates.wantedBack(back),
        attempt.pullUpdatedNMTokens(), promoted.isEmpty() ? null : promoted,
        parked.isEmpty() ? null : parked), parking);
  }
}
