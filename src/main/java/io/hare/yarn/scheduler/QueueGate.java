package io.hare.yarn.scheduler;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.queues.QueueGuarantees;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The RM's side of the queues' GPU guarantees and maxima ({@link QueueGuarantees}, which the
 * simulator runs too) around the policy's offer ({@link PolicyHost#pass}). With {@code default}
 * alone it does nothing: the policy sees every job, as without queues. With several queues it
 * keeps the configured queues across refreshes and remembers, from the last pass, which queues
 * {@link #yields}: a warm container of a queue above its guarantee does not go on with its job's
 * next task while another queue waits for its guarantee. A job in a queue that a refresh dropped
 * counts as {@code default}. Jobs are {@link YarnJob}s, hidden from the policy with
 * {@link YarnJob#hide}; counts are GPU tasks the scheduler started (one GPU each), so containers of
 * several GPUs from other AMs are not counted against a queue. A queue guaranteed GPU types
 * counts, per type, the GPUs the policy sees busy with its jobs' tasks.
 *
 * <p>Threading: {@link #assign} on the scheduler thread under the policy lock; {@link #yields}
 * from any thread.
 */
final class QueueGate {

  private volatile QueueGuarantees guarantees;
  private volatile Set<String> yielding = Set.of();

  /** The queues of a (re)read configuration; {@code default} alone turns the gate off. */
  void configure(QueueConfig c) {
    guarantees = c.several() ? new QueueGuarantees(c.shares()) : null;
    if (!c.several()) {
      yielding = Set.of();
    }
  }

  boolean active() {
    return guarantees != null;
  }

  /**
   * Whether a GPU of a job in {@code queue} must go back to the offer at its task's end rather
   * than run the job's next task: the queue holds more than its guarantee while another queue
   * waits for its own, as of the last pass.
   */
  boolean yields(String queue) {
    return yielding.contains(queue);
  }

  /**
   * The policy's answer for {@code free} ({@link QueueGuarantees#assign}); called at every pass,
   * with no GPU free too, to work out who {@link #yields}.
   */
  List<Assignment> assign(SchedulingPolicy policy, ClusterView view, Collection<YarnJob> jobs,
      List<YarnGpu> free, long nowMs) {
    QueueGuarantees.Decision d = guarantees.assign(policy, view, jobs, free, nowMs);
    yielding = d.yielding();
    return d.assignments();
  }
}
