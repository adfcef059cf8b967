package io.hare.yarn.scheduler;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * What the fields of an AM's allocate call that Hare does not serve the way other schedulers do
 * mean here, per AM: YARN's meaning for every AM, Hare's own only for an AM that declared the
 * Hare protocol ({@link io.hare.yarn.JobTags}).
 *
 * <ul>
 *   <li><b>Container decreases</b> from a Hare AM are its task boundaries: to the container's own
 *       size, "the next task started" ({@link GpuTasks#continued}); to a size without the GPU at
 *       the container's current version, "park it" ({@link GpuTasks#parking}). Every other
 *       update (any increase, promotion or demotion; any decrease from another AM; a Hare AM's
 *       decrease of another shape) is refused with YARN's update error, whose reason names what
 *       Hare serves: Hare resizes no container, so an AM that wants another size releases the
 *       container and asks anew.
 *   <li><b>Strict locality</b> ({@code relaxLocality=false}) is refused for GPU asks, kept for
 *       others.
 *   <li><b>Scheduling requests</b> (placement constraints, reaching the scheduler when
 *       {@code yarn.resourcemanager.placement-constraints.handler} is {@code scheduler}) are
 *       refused for the whole call, as YARN refuses them where no handler is configured.
 *   <li><b>Giving a GPU back</b>: a Hare AM is asked with YARN's negotiable preemption contract
 *       ("the RM wants these back; give them back at a point you choose"), which is what Hare
 *       means: at the end of the container's current task. No AM is sent a strict contract,
 *       which in YARN means the containers will be killed.
 * </ul>
 *
 * <p>Called on AM RPC threads under the attempt's write lock; keeps no state of its own.
 */
final class AmUpdates {

  /** The reason of the update errors Hare returns (YARN's reasons are upper-case words too). */
  static final String NOT_SERVED = "UPDATE_NOT_SUPPORTED";

  private AmUpdates() {}

  /**
   * YARN's exception for an ask the scheduler refuses, which the RM's AM service hands to the AM
   * as an error of its allocate call. Hadoop 3.5 names it
   * {@code SchedulerInvalidResourceRequestException}, 3.4 {@code
   * SchedulerInvalidResoureRequestException}; both are {@link YarnRuntimeException}s.
   */
  private static final String[] INVALID_REQUEST = {
      "org.apache.hadoop.yarn.exceptions.SchedulerInvalidResourceRequestException",
      "org.apache.hadoop.yarn.exceptions.SchedulerInvalidResoureRequestException"};

  /**
   * Refuses scheduling requests with a message naming what Hare serves instead.
   *
   * @throws YarnRuntimeException YARN's invalid-request exception, if there is any
   */
  static void refuseSchedulingRequests(List<SchedulingRequest> requests) {
    if (requests != null && !requests.isEmpty()) {
      throw invalidRequest("HareScheduler does not place "
          + "SchedulingRequests (placement constraints); " + requests.size() + " refused. Ask "
          + "with ResourceRequests (AMRMClient.ContainerRequest), and set "
          + "yarn.resourcemanager.placement-constraints.handler to disabled");
    }
  }

  /**
   * Refuses a Hare AM's asks of more than one GPU per container: its tasks are one GPU each, and
   * the round protocol counts one GPU per task. Other AMs are served ({@link MultiGpuContainers}).
   *
   * @throws YarnRuntimeException YARN's invalid-request exception, if there is any
   */
  static void refuseMultiGpuTasks(boolean speaksHare, List<ResourceRequest> asks) {
    multiGpuHareAsk(speaksHare, asks).ifPresent(r -> {
      throw invalidRequest("an AM of the Hare protocol asks one GPU per task container"
          + " (yarn.io/gpu=1), got yarn.io/gpu=" + Gpus.of(r.getCapability()) + " at priority "
          + r.getPriority() + "; a job that needs more GPUs per task runs without the Hare"
          + " protocol");
    });
  }

  /** The first ask of more than one GPU per container, if the AM speaks the Hare protocol. */
  static Optional<ResourceRequest> multiGpuHareAsk(boolean speaksHare,
      List<ResourceRequest> asks) {
    if (!speaksHare || asks == null) {
      return Optional.empty();
    }
    return asks.stream().filter(r -> r.getNumContainers() > 0
        && MultiGpuContainers.isMultiGpu(r.getCapability())).findFirst();
  }

  /**
   * Refuses GPU asks with strict locality ({@code relaxLocality=false}, as AMRMClient sends for a
   * container wanted on given nodes only): the policy places GPU tasks on the GPUs it chooses,
   * and a GPU it chose on another node would stay free while it kept choosing it. Cancelling
   * such an ask (no containers) passes. Non-GPU asks keep their locality ({@link
   * ContainerPlacer#place}).
   *
   * @throws YarnRuntimeException YARN's invalid-request exception, if there is any
   */
  static void refuseStrictGpuLocality(List<ResourceRequest> asks) {
    strictGpuAsk(asks).ifPresent(r -> {
      throw invalidRequest("HareScheduler places GPU containers on the GPUs its policy"
          + " chooses: strict locality (relaxLocality=false for " + r.getResourceName()
          + " at priority " + r.getPriority() + ") is not served for GPU asks. Ask with"
          + " relaxLocality=true, and keep off unwanted nodes with the AM's blacklist");
    });
  }

  /** The first GPU ask with strict locality, if any. */
  static Optional<ResourceRequest> strictGpuAsk(List<ResourceRequest> asks) {
    if (asks == null) {
      return Optional.empty();
    }
    return asks.stream().filter(r -> r.getNumContainers() > 0 && !r.getRelaxLocality()
        && ContainerPlacer.isGpuAsk(r.getCapability())).findFirst();
  }

  /** YARN's invalid-request exception of the Hadoop this runs on, with {@code message}. */
  static YarnRuntimeException invalidRequest(String message) {
    for (String name : INVALID_REQUEST) {
      try {
        return Class.forName(name).asSubclass(YarnRuntimeException.class)
            .getConstructor(String.class).newInstance(message);
      } catch (ReflectiveOperationException | ClassCastException e) {
        // the other Hadoop line's name
      }
    }
    return new YarnRuntimeException(message);
  }

  /**
   * Applies the attempt's container updates: a Hare AM's task boundaries are passed to
   * {@code tasks}; every other update is refused with an update error on the attempt.
   *
   * @param speaksHare whether the attempt's AM declared the Hare protocol
   * @return whether a container is to be parked
   */
  static boolean apply(HareAppAttempt attempt, boolean speaksHare, ContainerUpdates updates,
      GpuTasks tasks) {
    if (updates == null) {
      return false;
    }
    boolean parking = false;
    for (UpdateContainerRequest u : updates.getDecreaseRequests()) {
      RMContainer c = speaksHare ? attempt.getRMContainer(u.getContainerId()) : null;
      Resource now = c == null ? null : c.getAllocatedResource();
      if (c != null && Resources.equals(now, u.getCapability())) {
        tasks.continued(u.getContainerId());
      } else if (c != null && Gpus.of(now) > 0 && u.getCapability() != null
          && Gpus.of(u.getCapability()) == 0 && Resources.fitsIn(u.getCapability(), now)
          && u.getContainerVersion() == c.getContainer().getVersion()) {
        tasks.parking(u.getContainerId());
        parking = true;
      } else {
        attempt.refuseUpdate(u, NOT_SERVED + ": HareScheduler does not resize containers"
            + (speaksHare ? " (a Hare AM decreases a container only to its own size or to no GPU"
                + " at its current version)" : "")
            + "; release the container and ask for one of the size wanted");
      }
    }
    refuseAll(attempt, updates.getIncreaseRequests(), "increase");
    refuseAll(attempt, updates.getPromotionRequests(), "promote");
    refuseAll(attempt, updates.getDemotionRequests(), "demote");
    return parking;
  }

  private static void refuseAll(HareAppAttempt attempt, List<UpdateContainerRequest> updates,
      String what) {
    if (updates == null) {
      return;
    }
    for (UpdateContainerRequest u : updates) {
      attempt.refuseUpdate(u, NOT_SERVED + ": HareScheduler does not " + what + " containers; "
          + "release the container and ask for one of the size and execution type wanted");
    }
  }

  /**
   * The negotiable contract's resource side for {@code back}: one GPU per container, which YARN
   * needs beside the containers to send the contract at all; null when nothing is wanted back.
   */
  static List<ResourceRequest> wantedBack(Set<ContainerId> back) {
    if (back.isEmpty()) {
      return null;
    }
    Resource gpu = Resource.newInstance(0, 0);
    gpu.setResourceValue(ResourceInformation.GPU_URI, 1);
    return List.of(ResourceRequest.newInstance(Priority.newInstance(0), ResourceRequest.ANY,
        gpu, back.size()));
  }
}
