package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * Told what the Hare scheduler does with GPU tasks, at the scheduler's own times (the clock it
 * gives the policy), for tools that record or replay its decisions: the embedded demo compares
 * them with the simulator's ({@link HareScheduler#addTaskListener}). Called on the scheduler
 * thread under its lock, so an implementation must be quick, must not block and must not call
 * the scheduler.
 */
public interface TaskListener {

  /** The policy now sees {@code outstanding} GPU asks of the application (its ready tasks). */
  default void asksChanged(ApplicationId app, int outstanding, long nowMs) {}

  /**
   * A re-plan of the policy began, on the state brought up to date at this pass (it finishes on
   * its own thread; a policy that does not split its re-plan is consulted again after it).
   */
  default void replanStarted(long nowMs) {}

  /**
   * A split re-plan's plan became the policy's at this pass, before it was offered the free
   * GPUs (the k-th such call installs the k-th split re-plan started; at the same instant where
   * the re-plan was solved on the scheduler's thread).
   */
  default void planInstalled(long nowMs) {}

  /**
   * The policy was brought up to date with everything above and offered the free GPUs (a pass
   * that a re-plan kept out does not count): the moment it could act on them.
   */
  default void policyConsulted(long nowMs) {}

  /** A GPU task container was allocated on a GPU of {@code node}, of type {@code gpuType}. */
  default void taskStarted(ApplicationId app, ContainerId container, NodeId node,
      String gpuType, long nowMs) {}

  /**
   * A GPU task container ended and its GPU is free; {@code succeeded} when it exited 0 after
   * finishing normally.
   */
  default void taskEnded(ApplicationId app, ContainerId container, boolean succeeded,
      long nowMs) {}
}
