package io.hare.yarn.scheduler;

import io.hare.core.policy.Assignment;
import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU side of the scheduler: jobs, their GPU task containers, and the policy pass that
 * places them. An application's outstanding GPU asks are re-read only after its AM changed them
 * ({@link #asksChanged}, safe from the AM's RPC thread); a pass runs only when something changed
 * or the policy asked to be woken, so a heartbeat with nothing new costs a few checks.
 *
 * <p>Each assignment becomes one container of the job's highest-priority GPU ask on the GPU's
 * node, if it fits there in every resource; one that cannot be made (the AM withdrew the ask,
 * the node lacks memory) is dropped and the next pass retries. A task the policy put on a node
 * its AM blacklisted takes a free GPU of the same type elsewhere ({@link GpuElsewhere}). An
 * assignment to a job with a running standby container on the GPU's node gives that standby the
 * GPU instead ({@link Standbys}); standbys are made at node heartbeats ({@link #prelaunch}).
 *
 * <p>Not thread-safe apart from {@link #asksChanged}: the scheduler calls it under its lock.
 */
final class GpuTasks {

  private static final Logger LOG = LoggerFactory.getLogger(GpuTasks.class);

  /** A task container; {@code measured} false when recovered after an RM restart. */
  private record Running(YarnJob job, YarnGpu gpu, long startMs, boolean measured) {}

  private final PolicyHost host;
  private final GpuInventory inventory;
  private final ContainerPlacer placer;
  private final Map<ApplicationId, YarnJob> jobs = new HashMap<>();
  private final Map<ContainerId, Running> running = new HashMap<>();
  /** The running task of each busy GPU (identity: a GPU object is one slot of one node). */
  private final Map<YarnGpu, Running> onGpu = new HashMap<>();
  private final Standbys standbys;
  private final EndingGpus ending = new EndingGpus();
  /** Resources promotions added to, less those parkings took from, live containers. */
  private final Resource growth = Resources.createResource(0, 0);
  private final Set<ApplicationId> asksChanged = ConcurrentHashMap.newKeySet();
  /** Warm containers whose AM reported that their next task started. */
  private final Set<ContainerId> continued = ConcurrentHashMap.newKeySet();
  /** Warm containers whose AM reported that their task ended and asked to park them. */
  private final Set<ContainerId> parking = ConcurrentHashMap.newKeySet();
  /** Containers whose parking was refused: killed at the next {@link #prelaunch}. */
  private final List<RMContainer> refused = new ArrayList<>();
  /** Job and GPU type of each running task container, for AM RPC threads. */
  private final Map<ContainerId, Warm> warm = new ConcurrentHashMap<>();

  /** {@code givesBack}: the job's AM speaks the Hare protocol, so it may be asked for the GPU. */
  private record Warm(String jobId, GpuType type, boolean givesBack) {}
  private final List<TaskListener> listeners;
  private final IsolatedNodes isolation;
  private boolean retry;

  /**
   * @param listeners told of asks, starts and ends; read at each call (may grow later)
   * @param standbys the standby containers' books and settings
   * @param isolation where standbys may be used, and the device each GPU container is told
   */
  GpuTasks(PolicyHost host, GpuInventory inventory, ContainerPlacer placer,
      List<TaskListener> listeners, Standbys standbys, IsolatedNodes isolation) {
    this.host = host;
    this.inventory = inventory;
    this.placer = placer;
    this.listeners = listeners;
    this.standbys = standbys;
    this.isolation = isolation;
  }

  /** What {@link #prelaunch} did at one node heartbeat. */
  record Prelaunch(List<RMContainer> made, List<RMContainer> unneeded) {}

  /** Standby containers waiting now. */
  int standbyCount() {
    return standbys.size();
  }

  /**
   * Resources promotions added to live containers, less those parkings took back, since the
   * last call (then zero).
   */
  Resource takeGrowth() {
    Resource g = Resources.clone(growth);
    Resources.subtractFrom(growth, g);
    return g;
  }

  void addJob(YarnJob job) {
    jobs.put(job.appId(), job);
  }

  YarnJob job(ApplicationId id) {
    return jobs.get(id);
  }

  /** The admitted jobs, in no order. */
  Collection<YarnJob> jobs() {
    return jobs.values();
  }

  void removeJob(ApplicationId id, long nowMs) {
    YarnJob j = jobs.remove(id);
    asksChanged.remove(id);
    if (j != null) {
      host.jobDone(j, nowMs);
    }
  }

  /** The AM of {@code app} changed its asks; read them at the next pass. Any thread. */
  void asksChanged(ApplicationId app) {
    asksChanged.add(app);
  }

  /**
   * The AM of a running GPU task container reports that the container started the job's next
   * task (a warm container); counted at the next pass. Any thread.
   */
  void continued(ContainerId id) {
    if (warm.containsKey(id)) {
      continued.add(id);
    }
  }

  /**
   * The AM of a running GPU task container reports that its task ended and asks to keep the
   * container, without its GPU, as a standby for the job's next tasks ({@link Standbys}); done
   * at the next pass. Any thread.
   */
  void parking(ContainerId id) {
    if (warm.containsKey(id)) {
      parking.add(id);
    }
  }

  /**
   * Of {@code containers}, the GPU task containers the policy wants back (warm ones) from an AM
   * that speaks the Hare protocol; any other AM's containers run until they end.
   */
  Set<ContainerId> revoked(Collection<ContainerId> containers) {
    Set<ContainerId> out = new HashSet<>();
    for (ContainerId id : containers) {
      Warm w = warm.get(id);
      if (w != null && w.givesBack() && !host.keepsWarm(w.jobId(), w.type())) {
        out.add(id);
      }
    }
    return out;
  }

  /** GPU tasks running now. */
  int runningCount() {
    return running.size();
  }

  /**
   * Brings readiness up to date and, if anything changed, runs one policy pass and makes its
   * containers.
   *
   * @return the containers made
   */
  List<RMContainer> schedule(Function<ApplicationId, HareAppAttempt> attempts,
      Function<NodeId, FiCaSchedulerNode> nodes, long nowMs) {
    // before the asks: the ask a continued task took is withdrawn in the same AM heartbeat
    if (!continued.isEmpty()) {
      for (ContainerId id : new ArrayList<>(continued)) {
        continued.remove(id);
        Running r = running.get(id);
        if (r != null) {
          host.taskContinued(r.job(), r.gpu(), nowMs, Math.max(1, nowMs - r.startMs()),
              r.measured());
          Running next = new Running(r.job(), r.gpu(), nowMs, true);
          running.put(id, next);
          onGpu.put(r.gpu(), next);
          for (TaskListener l : listeners) {
            l.taskEnded(r.job().appId(), id, true, nowMs);
            l.taskStarted(r.job().appId(), id, r.gpu().nodeId(), r.gpu().type().name(), nowMs);
          }
        }
      }
    }
    if (!parking.isEmpty()) {
      for (ContainerId id : new ArrayList<>(parking)) {
        parking.remove(id);
        park(id, attempts, nodes, nowMs);
      }
    }
    if (!asksChanged.isEmpty()) {
      for (ApplicationId id : new ArrayList<>(asksChanged)) {
        asksChanged.remove(id);
        YarnJob j = jobs.get(id);
        HareAppAttempt a = attempts.apply(id);
        if (j != null) {
          int n = a == null || a.isStopped() ? 0 : outstanding(a);
          host.asksChanged(j, n, nowMs);
          for (TaskListener l : listeners) {
            l.asksChanged(id, n, nowMs);
          }
        }
      }
    }
    if (retry) {
      retry = false;
      host.markDirty();
    }
    List<RMContainer> placed = new ArrayList<>();
    if (!host.passDue(nowMs)) {
      return placed;
    }
    List<Assignment> decided = host.pass(nowMs);
    if (host.replanStarted()) {
      for (TaskListener l : listeners) {
        l.replanStarted(nowMs);
      }
    }
    if (host.consulted()) {
      for (TaskListener l : listeners) {
        l.policyConsulted(nowMs);
      }
    }
    Set<String> given = null;
    for (Assignment a : decided) {
      YarnJob job = host.activeJob(a.jobId());
      YarnGpu gpu = inventory.gpu(a.gpuId());
      HareAppAttempt attempt = attempts.apply(job.appId());
      FiCaSchedulerNode node = nodes.apply(gpu.nodeId());
      if (attempt != null && node != null && GpuElsewhere.blacklisted(attempt, node)) {
        given = given == null ? GpuElsewhere.given(decided) : given;
        gpu = GpuElsewhere.instead(attempt, gpu, inventory.free(), given, nodes);
        node = gpu == null ? null : nodes.apply(gpu.nodeId());
      }
      RMContainer c = null;
      if (attempt != null && node != null) {
        c = promoteStandby(attempt, job, node, gpu);
        if (c == null) {
          boolean standby = standbys.enabled() && job.takesStandbys();
          boolean isolated = isolation.isolated(gpu.nodeId());
          c = placeGpuTask(attempt, node, taskTags(standby && !isolated, gpu));
          if (c != null && standby && isolated) {
            isolation.skipped(gpu.nodeId());
          }
        }
      }
      if (c == null) {
        retry = true;
        LOG.debug("could not start a task of {} on {} now; retrying at the next heartbeat",
            job, gpu);
        continue;
      }
      Running r = new Running(job, gpu, nowMs, true);
      running.put(c.getContainerId(), r);
      onGpu.put(gpu, r);
      warm.put(c.getContainerId(), new Warm(job.id(), gpu.type(), job.speaksHare()));
      host.taskStarted(job, gpu, nowMs);
      for (TaskListener l : listeners) {
        l.taskStarted(job.appId(), c.getContainerId(), gpu.nodeId(), gpu.type().name(), nowMs);
      }
      placed.add(c);
      LOG.debug("task of {} on {}: container {}", job, gpu, c.getContainerId());
    }
    return placed;
  }

  /**
   * The task of warm container {@code id} ended well and its AM asked to park the container:
   * the task's end is counted as a container's end would be and its GPU freed; the container
   * becomes a standby of its job on its node ({@link Gpus#standby}: it keeps its memory), if
   * standbys are on and the node keeps memory and vcores for a task on each free GPU besides.
   * Otherwise it is killed at the next {@link #prelaunch}; it runs nothing, nothing is lost.
   */
  private void park(ContainerId id, Function<ApplicationId, HareAppAttempt> attempts,
      Function<NodeId, FiCaSchedulerNode> nodes, long nowMs) {
    Running r = running.get(id);
    if (r == null) {
      return; // it ended meanwhile
    }
    HareAppAttempt a = attempts.apply(r.job().appId());
    RMContainer c = a == null ? null : a.getRMContainer(id);
    if (c == null) {
      return; // its end is on the way, and counts the task
    }
    ended(id, true, nowMs);
    FiCaSchedulerNode node = nodes.apply(r.gpu().nodeId());
    Resource before = Resources.clone(c.getAllocatedResource());
    Resource small = Gpus.standby(before);
    boolean isolated = node != null && isolation.isolated(node.getNodeID());
    if (isolated && standbys.enabled()) {
      isolation.skipped(node.getNodeID());
    }
    if (!standbys.enabled() || node == null || a.isStopped() || isolated
        || !Resources.fitsIn(Resources.multiply(Gpus.without(before), freeGpus(node.getNodeID())),
            Resources.add(node.getUnallocatedResource(), Resources.subtract(before, small)))
        || !a.underWriteLock(() -> a.park(c, node, small))) {
      refused.add(c);
      LOG.debug("container {} of {} not parked; it ends", id, r.job());
      return;
    }
    standbys.add(new Standbys.Standby(c, r.job().appId(), node.getNodeID(), nowMs, true));
    Resources.subtractFrom(growth, Resources.subtract(before, small));
    LOG.debug("container {} of {} parked on {}", id, r.job(), node.getNodeID());
  }

  /** GPUs of {@code node} free now. */
  private int freeGpus(NodeId node) {
    int free = 0;
    for (YarnGpu g : inventory.on(node)) {
      if (!g.taken()) {
        free++;
      }
    }
    return free;
  }

  /**
   * Gives a running standby of {@code job} on {@code node} GPU {@code gpu} (its device); null if
   * the job has none there, the node isolates its GPUs, or it cannot be promoted (the standby
   * then ends as unneeded later).
   */
  private RMContainer promoteStandby(HareAppAttempt attempt, YarnJob job,
      FiCaSchedulerNode node, YarnGpu gpu) {
    Standbys.Standby s = isolation.isolated(node.getNodeID()) ? null
        : standbys.find(job.appId(), node.getNodeID());
    SchedulerRequestKey key = s == null ? null : ContainerPlacer.firstGpuAsk(attempt);
    if (key == null) {
      return null; // none here, or no ask left: a standby waits on, and ends if not needed
    }
    RMContainer c = s.container();
    Resource before = Resources.clone(c.getAllocatedResource());
    Resource full = Resources.componentwiseMax(attempt.pending(key).getPerAllocationResource(),
        before);
    if (!Resources.fitsIn(Resources.subtract(full, before), node.getUnallocatedResource())
        || !attempt.underWriteLock(() -> attempt.promote(c, node, key, full,
            isolation.device(gpu)))) {
      return null;
    }
    standbys.forget(c.getContainerId());
    Resources.addTo(growth, Resources.subtract(c.getAllocatedResource(), before));
    LOG.debug("standby {} of {} promoted on {}", c.getContainerId(), job, node.getNodeID());
    return c;
  }

  /**
   * At a heartbeat of {@code node}: standbys there that are no longer needed (more than their
   * job can use, {@link YarnJob#standbysUseful}; the job or attempt ended; or, made ahead, it
   * waited past the limit since its job was last in line for a GPU here), and new standbys for
   * the node's busy GPUs whose task is expected to end within the lead time. Those GPUs, soonest
   * first, go down the policy's line for their type ({@link PolicyHost#line}), each job taking
   * as many as it has ready tasks: a GPU taken by its own running job runs that job's next task
   * warm, and is hedged to the next job in line ({@link EndingGpus}: the estimates cannot tell
   * which of a job's GPUs it continues on); one
   * taken by (or hedged to) another job that takes standbys, not covered by a standby of that
   * job here already, gets one while the job has fewer standbys than it can use. A node holds
   * at most twice as many standbys made this way as it has GPUs: those for the jobs in line now,
   * and some for jobs that were (the policy may come back); when they fill it, a job in line now
   * takes the place of the one that has waited unneeded longest. Parked containers do not count
   * there, nor wait against the limit: they are bounded by memory (a node parks one only with
   * room for a task on each free GPU besides) and by their jobs' use, and a job waiting for
   * GPUs longer than the limit runs its next tasks in them.
   */
  Prelaunch prelaunch(Function<ApplicationId, HareAppAttempt> attempts, FiCaSchedulerNode node,
      long nowMs) {
    NodeId id = node.getNodeID();
    List<RMContainer> unneeded = new ArrayList<>(refused);
    refused.clear();
    List<Standbys.Standby> here = standbys.onNode(id);
    for (Standbys.Standby s : here) {
      YarnJob j = jobs.get(s.app());
      HareAppAttempt a = attempts.apply(s.app());
      // a job with tasks to come keeps its standbys (parked containers, mostly) for its next
      // round, even while fewer of this round's tasks wait
      if (j == null || a == null || a.isStopped()
          || !a.getApplicationAttemptId().equals(s.container().getApplicationAttemptId())
          || standbys.of(s.app()) > j.standbysUseful() || isolation.isolated(id)
          || (!s.parked() && standbys.unneededMs(s, nowMs) > standbys.maxWaitMs())) {
        standbys.forget(s.container().getContainerId());
        unneeded.add(s.container());
      }
    }
    List<RMContainer> made = new ArrayList<>();
    if (!standbys.enabled() || isolation.isolated(id)) {
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
    int room = 2 * inventory.on(id).size();
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
    for (YarnGpu g : inventory.on(id)) {
      Running r = onGpu.get(g);
      YarnJob b = r == null ? null : ending.standbyFor(g);
      if (b == null || b == r.job() || !b.takesStandbys()) {
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
    int free = freeGpus(id);
    for (YarnGpu g : uncovered) {
      YarnJob b = ending.standbyFor(g);
      HareAppAttempt a = attempts.apply(b.appId());
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
      RMContainer c = placer.placeStandby(a, node, free);
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
    Map<YarnGpu, EndingGpus.Busy> ending = new HashMap<>();
    for (Running r : onGpu.values()) {
      long end = expectedEndMs(r, r.gpu());
      if (end - standbys.leadMs() <= nowMs) {
        ending.put(r.gpu(), new EndingGpus.Busy(r.job(), end));
      }
    }
    return ending;
  }

  /** When the task on {@code g} should end by its job's estimate; never if unknown. */
  private static long expectedEndMs(Running r, YarnGpu g) {
    TaskTimes t = r.job().times(g.type());
    return t == null ? Long.MAX_VALUE : r.startMs() + (long) t.computeMs();
  }

  /**
   * The allocation tags of a task container on {@code gpu}: {@link JobTags#PARKABLE} if
   * {@code parkable}, and its device ({@link GpuDevices}) where YARN does not assign one.
   */
  private Set<String> taskTags(boolean parkable, YarnGpu gpu) {
    Set<String> tags = new HashSet<>();
    if (parkable) {
      tags.add(JobTags.PARKABLE);
    }
    isolation.device(gpu).ifPresent(d -> tags.add(GpuDevices.tag(d)));
    return tags;
  }

  private RMContainer placeGpuTask(HareAppAttempt attempt, FiCaSchedulerNode node,
      Set<String> tags) {
    for (SchedulerRequestKey key : new ArrayList<>(attempt.getSchedulerKeys())) {
      PendingAsk ask = attempt.pending(key);
      if (ask.getCount() > 0 && ContainerPlacer.isGpuAsk(ask.getPerAllocationResource())) {
        RMContainer c = placer.place(attempt, key, node, tags);
        if (c != null) {
          return c;
        }
      }
    }
    return null;
  }

  /** Outstanding one-GPU containers of the attempt. */
  static int outstanding(HareAppAttempt attempt) {
    int n = 0;
    for (SchedulerRequestKey key : new ArrayList<>(attempt.getSchedulerKeys())) {
      PendingAsk ask = attempt.pending(key);
      if (ask.getCount() > 0 && ContainerPlacer.isGpuAsk(ask.getPerAllocationResource())) {
        n += ask.getCount();
      }
    }
    return n;
  }

  /**
   * A container ended. A GPU task that exited 0 after finishing normally is a computed task;
   * any other end frees the GPU as a failed task.
   */
  void containerCompleted(RMContainer c, ContainerStatus status, RMContainerEventType event,
      long nowMs) {
    if (standbys.forget(c.getContainerId())) {
      return; // a standby ran no task
    }
    boolean ok = event == RMContainerEventType.FINISHED && status != null
        && status.getExitStatus() == ContainerExitStatus.SUCCESS;
    ended(c.getContainerId(), ok, nowMs);
  }

  /** The task of container {@code id}, if it runs one, ended: its GPU frees for the policy. */
  private void ended(ContainerId id, boolean ok, long nowMs) {
    Running r = running.remove(id);
    warm.remove(id);
    continued.remove(id);
    if (r == null) {
      return;
    }
    onGpu.remove(r.gpu(), r);
    host.taskEnded(r.job(), r.gpu(), nowMs, ok, Math.max(1, nowMs - r.startMs()),
        r.measured());
    for (TaskListener l : listeners) {
      l.taskEnded(r.job().appId(), id, ok, nowMs);
    }
  }

  /** The free GPU of {@code node} with index {@code device} if any, else any free GPU of it. */
  private YarnGpu freeDevice(NodeId node, OptionalInt device) {
    for (YarnGpu g : inventory.on(node)) {
      if (!g.taken() && device.isPresent() && g.index() == device.getAsInt()) {
        return g;
      }
    }
    return inventory.freeOn(node);
  }

  /**
   * After an RM restart: a live container that a NodeManager reported running, already
   * recovered into YARN's bookkeeping. A GPU container of a known job takes a free GPU of its
   * node in the inventory (the one of its device tag, if free) and becomes a running task of the
   * job for the policy.
   *
   * @return whether it became a GPU task
   */
  boolean recovered(RMContainer c, long nowMs) {
    if (!ContainerPlacer.isGpuAsk(c.getAllocatedResource())
        || running.containsKey(c.getContainerId())) {
      return false;
    }
    YarnJob job = jobs.get(c.getApplicationAttemptId().getApplicationId());
    YarnGpu gpu = freeDevice(c.getAllocatedNode(), GpuDevices.of(c.getAllocationTags()));
    if (job == null || gpu == null) {
      LOG.warn("recovered GPU container {} on {}: {}; not a task for the policy",
          c.getContainerId(), c.getAllocatedNode(),
          job == null ? "unknown job" : "no free GPU left on the node");
      return false;
    }
    Running r = new Running(job, gpu, nowMs, false);
    running.put(c.getContainerId(), r);
    onGpu.put(gpu, r);
    warm.put(c.getContainerId(), new Warm(job.id(), gpu.type(), job.speaksHare()));
    host.taskRecovered(job, gpu, nowMs);
    LOG.info("recovered task of {} on {}: container {}", job, gpu, c.getContainerId());
    return true;
  }
}
