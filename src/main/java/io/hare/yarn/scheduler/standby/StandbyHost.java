package io.hare.yarn.scheduler.standby;

import io.hare.core.GpuType;
import io.hare.yarn.scheduler.YarnGpu;
import io.hare.yarn.scheduler.YarnJob;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;

/**
 * The scheduler as the standbys see it: its jobs, its running tasks, the policy's line, and the
 * container changes that only the scheduler's package can make (YARN keeps an attempt's asks and
 * container bookkeeping package-private or protected). Each attempt passed in is one the
 * scheduler handed out. Called under the scheduler's lock.
 */
public interface StandbyHost {

  /** The admitted job of {@code app}; null if none. */
  YarnJob job(ApplicationId app);

  /** The GPUs of {@code node}, in index order. */
  List<YarnGpu> gpusOn(NodeId node);

  /** Number of GPUs of {@code node} free for a task. */
  int freeGpusOn(NodeId node);

  /** The GPUs that run a task now. */
  Collection<YarnGpu> busyGpus();

  /** The job whose task runs on {@code gpu}; null if none. */
  YarnJob runningOn(YarnGpu gpu);

  /** When the task on busy {@code gpu} should end by its job's estimate; never if unknown. */
  long expectedEndMs(YarnGpu gpu);

  /** The active jobs in the policy's line for GPUs of {@code type}, first first. */
  List<YarnJob> line(GpuType type);

  /** Changes (by identity) whenever the policy's line does. */
  Object lineVersion();

  /** Whether YARN isolates the GPUs of {@code node}: then no standby is made nor promoted there. */
  boolean isolated(NodeId node);

  /**
   * A standby container of {@code attempt} on {@code node}, which keeps room for a task on each
   * of its {@code freeGpus} free GPUs besides, made for the node's GPU {@code forDevice} (the
   * busy one it waits for); null if none can be made.
   */
  RMContainer placeStandby(FifoAppAttempt attempt, FiCaSchedulerNode node, int freeGpus,
      int forDevice);

  /**
   * Gives standby {@code c} of {@code attempt} on {@code node} GPU {@code gpu} and its task's full
   * size, taking one of the attempt's GPU asks.
   *
   * @return false if the attempt has no GPU ask left, the node lacks room for the difference, or
   *     the attempt refused (nothing changed)
   */
  boolean promote(FifoAppAttempt attempt, RMContainer c, FiCaSchedulerNode node, YarnGpu gpu);

  /**
   * Shrinks task container {@code c} of {@code attempt} on {@code node} to {@code small}.
   *
   * @return false if the attempt refused (nothing changed)
   */
  boolean park(FifoAppAttempt attempt, RMContainer c, FiCaSchedulerNode node, Resource small);
}
