package io.hare.yarn.scheduler.standby;

import io.hare.yarn.scheduler.Gpus;
import io.hare.yarn.scheduler.YarnGpu;
import io.hare.yarn.scheduler.YarnJob;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Standbys on: jobs whose AM takes standbys get containers without a GPU ahead of the GPUs they
 * are in line for, and keep their warm task containers, parked, between tasks; a task the policy
 * gives such a job on a node where it has one starts in it, given the GPU (a resource increase),
 * instead of in a new container ({@link Standbys}). Only on nodes whose GPUs YARN does not
 * isolate per container ({@link IsolationSkips}). Not thread-safe: the scheduler's lock.
 */
public final class WarmStandbys implements StandbySwitching {

  private static final Logger LOG = LoggerFactory.getLogger(WarmStandbys.class);

  private final StandbyHost host;
  private final Standbys standbys;
  private final EndingGpus ending = new EndingGpus();
  private final IsolationSkips skips;
  /** Resources promotions added to, less those parkings took from, live containers. */
  private final Resource growth = Resources.createResource(0, 0);

  /**
   * @param leadMs how long before a task's expected end its GPU's standby may be made
   * @param skipped called for each task container that goes without standbys for isolation
   */
  public WarmStandbys(StandbyHost host, long leadMs, Runnable skipped) {
    this.host = host;
    this.standbys = new Standbys(leadMs);
    this.skips = new IsolationSkips(skipped);
  }

  /**
   * How long a standby made ahead may wait unneeded before it is killed, with a lead of
   * {@code leadMs} ({@link Standbys#maxWaitMs}).
   */
  public static long maxWaitMs(long leadMs) {
    return Standbys.maxWaitMs(leadMs);
  }

  @Override
  public boolean parkable(YarnJob job, NodeId node) {
    return job.takesStandbys() && !host.isolated(node);
  }

  @Override
  public void taskPlaced(YarnJob job, NodeId node) {
    if (job.takesStandbys() && host.isolated(node)) {
      skips.skipped(node);
    }
  }

  @Override
  public int count() {
    return standbys.size();
  }

  @Override
  public Resource takeGrowth() {
    Resource g = Resources.clone(growth);
    Resources.subtractFrom(growth, g);
    return g;
  }

  @Override
  public boolean ended(ContainerId id) {
    return standbys.forget(id);
  }

  /**
   * The container becomes a standby of its job on its node ({@link Gpus#standby}: it keeps its
   * memory) if the node keeps memory and vcores for a task on each free GPU besides and does not
   * isolate its GPUs.
   */
  @Override
  public boolean park(RMContainer c, FifoAppAttempt attempt, YarnJob job, FiCaSchedulerNode node,
      long nowMs) {
    Resource before = Resources.clone(c.getAllocatedResource());
    Resource small = Gpus.standby(before);
    boolean isolated = node != null && host.isolated(node.getNodeID());
    if (isolated) {
      skips.skipped(node.getNodeID());
    }
    if (node == null || attempt.isStopped() || isolated
        || !Resources.fitsIn(Resources.multiply(Gpus.without(before),
            host.freeGpusOn(node.getNodeID())),
            Resources.add(node.getUnallocatedResource(), Resources.subtract(before, small)))
        || !host.park(attempt, c, node, small)) {
      return false;
    }
    standbys.add(new Standbys.Standby(c, job.appId(), node.getNodeID(), nowMs, true));
    Resources.subtractFrom(growth, Resources.subtract(before, small));
    LOG.debug("container {} of {} parked on {}", c.getContainerId(), job, node.getNodeID());
    return true;
  }

  /**
   * Null if the job has no standby there, the node isolates its GPUs, or it cannot be promoted
   * (the standby then ends as unneeded later).
   */
  @Override
  public RMContainer promote(FifoAppAttempt attempt, YarnJob job, FiCaSchedulerNode node,
      YarnGpu gpu) {
    Standbys.Standby s = host.isolated(node.getNodeID()) ? null
        : standbys.find(job.appId(), node.getNodeID());
    if (s == null) {
      return null; // none here: a standby elsewhere waits on, and ends if not needed
    }
    RMContainer c = s.container();
    Resource before = Resources.clone(c.getAllocatedResource());
    if (!host.promote(attempt, c, node, gpu)) {
      return null;
    }
    standbys.forget(c.getContainerId());
    Resources.addTo(growth, Resources.subtract(c.getAllocatedResource(), before));
    LOG.debug("standby {} of {} promoted on {}", c.getContainerId(), job, node.getNodeID());
    return c;
  }

  /**
   * Standbys on {@code node} that are no longer needed (more than their job can use,
   * {@link YarnJob#standbysUseful}; the job or attempt ended; or, made ahead, it waited past the
   * limit since its job was last in line for a GPU here), and new standbys for the node's busy
   * GPUs whose task is expected to end within the lead time. Those GPUs, soonest first, go down
   * the policy's line for their type ({@link StandbyHost#line}), each job taking as many as it
   * has ready tasks: a GPU taken by its own running job runs that job's next task warm, and is
   * hedged to the next job in line ({@link EndingGpus}: the estimates cannot tell which of a
   * job's GPUs it continues on); one taken by (or hedged to) another job that takes standbys,
   * not covered by a standby of that job here already, gets one while the job has fewer standbys
   * than it can use. A node holds at most twice as many standbys made this way as it has GPUs:
   * those for the jobs in line now, and some for jobs that were (the policy may come back); when
   * they fill it, a job in line now takes the place of the one that has waited unneeded longest.
   * Parked containers do not count there, nor wait against the limit: they are bounded by memory
   * (a node parks one only with room for a task on each free GPU besides) and by their jobs' use,
   * and a job waiting for GPUs longer than the limit runs its next tasks in them.
   */
  @Override
  public Prelaunch prelaunch(Function<ApplicationId, ? extends FifoAppAttempt> attempts,
      FiCaSchedulerNode node, long nowMs) {
    NodeId id = node.getNodeID();
    List<RMContainer> unneeded = new ArrayList<>();
    List<Standbys.Standby> here = standbys.onNode(id);
    for (Standbys.Standby s : here) {
      YarnJob j = host.job(s.app());
      FifoAppAttempt a = attempts.apply(s.app());
      // a job with tasks to come keeps its standbys (parked containers, mostly) for its next
      // round, even while fewer of this round's tasks wait
      if (j == null || a == null || a.isStopped()
          || !a.getApplicationAttemptId().equals(s.container().getApplicationAttemptId())
          || standbys.of(s.app()) > j.standbysUseful() || host.isolated(id)
          || (!s.parked() && standbys.unneededMs(s, nowMs) > standbys.maxWaitMs())) {
        standbys.forget(s.container().getContainerId());
        unneeded.add(s.container());
      }
    }
    List<RMContainer> made = new ArrayList<>();
    if (host.isolated(id)) {
      return new Prelaunch(made, unneeded);
    }
    // the standbys that stay, by job: each covers one GPU counted to its job
    Map<ApplicationId, Integer> covering = new HashMap<>();
    for (Standbys.Standby s : here) {
      if (!unneeded.contains(s.container())) {
        covering.merge(s.app(), 1, Integer::sum);
      }
    }
    // parked containers are bounded by memory and by what their jobs can use; made ones also by
    // this, as they are a guess of the policy's next moves
    int room = 2 * host.gpusOn(id).size();
    for (Standbys.Standby s : here) {
      if (!s.parked() && !unneeded.contains(s.container())) {
        room--;
      }
    }
    Map<ApplicationId, Integer> coveringNow = new HashMap<>();
    if (ending.due(host, nowMs)) {
      ending.refresh(host, endingSoon(nowMs), nowMs);
    }
    List<YarnGpu> uncovered = new ArrayList<>(); // its job in line has no standby here
    for (YarnGpu g : host.gpusOn(id)) {
      YarnJob running = host.runningOn(g);
      YarnJob b = running == null ? null : ending.standbyFor(g);
      if (b == null || b == running || !b.takesStandbys()) {
        continue; // nobody waits, the running job runs one of its ready tasks next, or no standby
      }
      if (covering.getOrDefault(b.appId(), 0) > 0) {
        covering.merge(b.appId(), -1, Integer::sum); // b's standby here waits for this GPU
        coveringNow.merge(b.appId(), 1, Integer::sum);
      } else {
        uncovered.add(g);
      }
    }
    // made ahead for jobs no longer in line for a GPU here
    List<Standbys.Standby> spare = new ArrayList<>();
    for (Standbys.Standby s : here) {
      if (!unneeded.contains(s.container())) {
        if (coveringNow.getOrDefault(s.app(), 0) > 0) {
          coveringNow.merge(s.app(), -1, Integer::sum);
          standbys.needed(s, nowMs);
        } else if (!s.parked()) {
          spare.add(s);
        }
      }
    }
    int free = host.freeGpusOn(id);
    for (YarnGpu g : uncovered) {
      YarnJob b = ending.standbyFor(g);
      FifoAppAttempt a = attempts.apply(b.appId());
      // the cap is what b can use, not its ready tasks: its containers parked on nodes whose
      // GPUs stay busy cover none of the GPUs that go to it
      if (a == null || a.isStopped() || standbys.of(b.appId()) >= b.standbysUseful()) {
        continue;
      }
      if (room <= 0 && !spare.isEmpty()) {
        // the node's room is taken by guesses the line has left: a job in line now goes first
        // (else it starts in a new container, while they may wait up to the limit for nothing)
        Standbys.Standby old = Collections.max(spare,
            Comparator.comparingLong(s -> standbys.unneededMs(s, nowMs)));
        spare.remove(old);
        standbys.forget(old.container().getContainerId());
        unneeded.add(old.container());
        room++;
      }
      if (room <= 0) {
        continue;
      }
      RMContainer c = host.placeStandby(a, node, free, g.index());
      if (c != null) {
        standbys.add(new Standbys.Standby(c, b.appId(), id, nowMs, false));
        made.add(c);
        room--;
        LOG.debug("standby {} of {} on {} for {}", c.getContainerId(), b, id, g);
      }
    }
    return new Prelaunch(made, unneeded);
  }

  /** The busy GPUs whose task is expected to end within the lead time, with that end. */
  private Map<YarnGpu, EndingGpus.Busy> endingSoon(long nowMs) {
    Map<YarnGpu, EndingGpus.Busy> soon = new HashMap<>();
    for (YarnGpu g : host.busyGpus()) {
      long end = host.expectedEndMs(g);
      if (end - standbys.leadMs() <= nowMs) {
        soon.put(g, new EndingGpus.Busy(host.runningOn(g), end));
      }
    }
    return soon;
  }
}
