package io.hare.yarn.scheduler.standby;

import io.hare.yarn.scheduler.YarnGpu;
import io.hare.yarn.scheduler.YarnJob;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;

/**
 * How a GPU switches from one job's task to another's: in a new container each time
 * ({@link NoStandbys}, the default), or also through standby and parked containers that are
 * given the GPU without a container launch ({@link WarmStandbys}, with
 * {@code yarn.scheduler.hare.standby.enabled}). Chosen once when the scheduler starts. Not
 * thread-safe: the scheduler's lock.
 */
public interface StandbySwitching {

  /**
   * The switching that {@code yarn.scheduler.hare.standby.enabled} ({@code enabled}) asks for,
   * made once the scheduler's side ({@link StandbyHost}) exists.
   *
   * @param leadMs how long before a task's expected end its GPU's standby may be made
   * @param skipped called for each task container that goes without standbys for isolation
   */
  static Function<StandbyHost, StandbySwitching> chosen(boolean enabled, long leadMs,
      Runnable skipped) {
    if (!enabled) {
      return host -> new NoStandbys();
    }
    return host -> new WarmStandbys(host, leadMs, skipped);
  }

  /** What {@link #prelaunch} did at one node heartbeat: containers made, and ones to kill. */
  record Prelaunch(List<RMContainer> made, List<RMContainer> unneeded) {}

  /** Whether a task container of {@code job} on {@code node} is made parkable by its AM. */
  boolean parkable(YarnJob job, NodeId node);

  /** A task container of {@code job} was made on {@code node} (counted where it is no standby). */
  void taskPlaced(YarnJob job, NodeId node);

  /**
   * Gives a running standby of {@code job} on {@code node} GPU {@code gpu}, for the task the
   * policy gave it there.
   *
   * @return the standby, now a task container; null if there is none to promote
   */
  RMContainer promote(FifoAppAttempt attempt, YarnJob job, FiCaSchedulerNode node, YarnGpu gpu);

  /**
   * The task of {@code c}, a container of {@code job}, ended and its AM asked to keep the
   * container without its GPU.
   *
   * @param node the container's node; null if it is gone
   * @return whether the container is parked; if not, it ends
   */
  boolean park(RMContainer c, FifoAppAttempt attempt, YarnJob job, FiCaSchedulerNode node,
      long nowMs);

  /** At a heartbeat of {@code node}: standbys made there, and those no longer needed. */
  Prelaunch prelaunch(Function<ApplicationId, ? extends FifoAppAttempt> attempts,
      FiCaSchedulerNode node, long nowMs);

  /**
   * Container {@code id} ended.
   *
   * @return whether it was a standby (it ran no task)
   */
  boolean ended(ContainerId id);

  /** Standby containers waiting now. */
  int count();

  /**
   * Resources promotions added to live containers, less those parkings took back, since the
   * last call (then zero).
   */
  Resource takeGrowth();
}
