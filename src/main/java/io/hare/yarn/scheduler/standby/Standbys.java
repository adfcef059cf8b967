package io.hare.yarn.scheduler.standby;

import io.hare.yarn.scheduler.Gpus;
import io.hare.yarn.scheduler.YarnJob;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;

/**
 * Standby containers: a switch of a GPU from one job's task to another's costs a container
 * launch (AM heartbeat, NodeManager start, launch script: hundreds of ms), so shortly before a
 * busy GPU is expected to free, the job in line for it ({@link EndingGpus}) gets a container on
 * that node without the GPU (its task's memory; no vcores, {@link Gpus#standby}), which its AM
 * launches at once and parks. When the GPU frees and the policy gives it to that job, the standby
 * is given the GPU (a resource increase, {@link StandbyHost#promote}) instead of a new container:
 * the switch then costs the AM's next heartbeat and a line to its task runner. A warm container
 * its AM parks after a task ({@link StandbyHost#park}) becomes a standby of its job the same
 * way.
 *
 * <p>A standby takes no ask (the job's tasks stay ready for the policy, which sees no standby at
 * all); it takes one when promoted. Only jobs whose AM says it takes standbys
 * ({@code hare.standby=true}) get them, and only as many as they can use
 * ({@link YarnJob#standbysUseful}: their asks, or while they have tasks to come a round's k less
 * their running tasks). A standby the job no longer needs (more than it can use; the job ended)
 * or, made ahead, that waited unneeded longer than {@link #maxWaitMs} is killed by the
 * scheduler; it runs no task, so nothing is lost. A job at a round barrier, or waiting for GPUs
 * however long, so keeps its parked containers.
 *
 * <p>This class keeps the books; {@link WarmStandbys} decides. Not thread-safe: the scheduler's
 * lock.
 */
final class Standbys {

  /**
   * A standby container of {@code app} on {@code node} since {@code sinceMs}: made as one, or
   * {@code parked} after a task of its job there.
   */
  record Standby(RMContainer container, ApplicationId app, NodeId node, long sinceMs,
      boolean parked) {}

  private static final EnumSet<RMContainerState> LIVE = EnumSet.of(RMContainerState.ALLOCATED,
      RMContainerState.ACQUIRED, RMContainerState.RUNNING);

  private final long leadMs;
  private final Map<ContainerId, Standby> byId = new HashMap<>();
  private final Map<NodeId, List<Standby>> byNode = new HashMap<>();
  private final Map<ApplicationId, Integer> perJob = new HashMap<>();
  /** When each standby's job was last in line for a GPU of its node ({@link #needed}). */
  private final Map<ContainerId, Long> neededMs = new HashMap<>();

  /** @param leadMs how long before a task's expected end its GPU's standby may be made */
  Standbys(long leadMs) {
    this.leadMs = leadMs;
  }

  long leadMs() {
    return leadMs;
  }

  /**
   * How long a standby made ahead may wait unneeded ({@link #unneededMs}) before it is killed:
   * a task that ran far past its estimate, or a policy that changed its mind, should not hold a
   * node's memory for long on a guess. Parked containers are no guess (their job runs its next
   * tasks in them) and do not wait against it.
   */
  long maxWaitMs() {
    return maxWaitMs(leadMs);
  }

  /** {@link #maxWaitMs()} with a lead of {@code leadMs}. */
  static long maxWaitMs(long leadMs) {
    return Math.max(10_000, 10 * leadMs);
  }

  void add(Standby s) {
    byId.put(s.container().getContainerId(), s);
    neededMs.put(s.container().getContainerId(), s.sinceMs());
    byNode.computeIfAbsent(s.node(), n -> new ArrayList<>()).add(s);
    perJob.merge(s.app(), 1, Integer::sum);
  }

  /** The standby's job is in line for a GPU of its node now: its wait starts again. */
  void needed(Standby s, long nowMs) {
    neededMs.computeIfPresent(s.container().getContainerId(), (id, t) -> Math.max(t, nowMs));
  }

  /**
   * How long a standby made ahead has waited unneeded: since its job was last in line for a GPU
   * of its node (or since it was made). The limit ({@link #maxWaitMs}) is on this, not on its
   * age: a standby made for a job that the policy put back in line, and then first again, is
   * still the one its GPU needs.
   */
  long unneededMs(Standby s, long nowMs) {
    return nowMs - neededMs.getOrDefault(s.container().getContainerId(), s.sinceMs());
  }

  /** Unpromoted standbys of {@code app}. */
  int of(ApplicationId app) {
    return perJob.getOrDefault(app, 0);
  }

  /** Standbys on {@code node} (a copy). */
  List<Standby> onNode(NodeId node) {
    List<Standby> l = byNode.get(node);
    return l == null ? List.of() : new ArrayList<>(l);
  }

  /** Standbys in all. */
  int size() {
    return byId.size();
  }

  /**
   * A live standby of {@code app} on {@code node} to promote ({@link #forget} it once promoted);
   * null if none. Its container may still be starting: promoted, its runner gets the task as
   * soon as it is up, still sooner than a new container's would.
   */
  Standby find(ApplicationId app, NodeId node) {
    List<Standby> l = byNode.get(node);
    if (l == null) {
      return null;
    }
    for (Standby s : l) {
      if (s.app().equals(app) && LIVE.contains(s.container().getState())) {
        return s;
      }
    }
    return null;
  }

  /** Takes a standby out of the books (it ended, was promoted or is being killed). */
  boolean forget(ContainerId id) {
    Standby s = byId.remove(id);
    if (s == null) {
      return false;
    }
    neededMs.remove(id);
    List<Standby> l = byNode.get(s.node());
    l.remove(s);
    if (l.isEmpty()) {
      byNode.remove(s.node());
    }
    perJob.computeIfPresent(s.app(), (a, n) -> n > 1 ? n - 1 : null);
    return true;
  }
}
