package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import io.hare.core.policy.Assignment;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import io.hare.yarn.scheduler.standby.NoStandbys;
import io.hare.yarn.scheduler.standby.StandbyHost;
import io.hare.yarn.scheduler.standby.StandbySwitching;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
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
 * its AM blacklisted takes a free GPU of the same type elsewhere ({@link GpuElsewhere}). Where
 * standbys are on, an assignment to a job with a standby container on the GPU's node gives that
 * standby the GPU instead, and standbys are made at node heartbeats ({@link #prelaunch}); all of
 * that is {@link StandbySwitching}'s, which with standbys off ({@link NoStandbys}) promotes,
 * parks and makes nothing.
 *
 * <p>Not thread-safe apart from {@link #asksChanged}: the scheduler calls it under its lock.
 */
final class GpuTasks {

  private static final Logger LOG = LoggerFactory.getLogger(GpuTasks.class);
  /**
   * The most GPU tasks of one job the policies see ready at once: the largest round a Hare job
   * may declare. YARN takes any ask count an AM sends (up to 2^31 - 1 per ask, several asks),
   * and the policies list-schedule ready tasks one by one: an AM asking for billions would hold
   * the scheduler's thread (and overflow the sum). The rest of its asks stay outstanding and
   * are seen as these are served.
   */
  static final int MAX_READY = JobTags.MAX_TASKS_PER_ROUND;

  /** A task container; {@code measured} false when recovered after an RM restart. */
  private record Running(YarnJob job, YarnGpu gpu, long startMs, boolean measured) {}

  private final PolicyHost host;
  private final GpuInventory inventory;
  private final ContainerPlacer placer;
  private final Map<ApplicationId, YarnJob> jobs = new HashMap<>();
  private final Map<ContainerId, Running> running = new HashMap<>();
  /** The running task of each busy GPU (identity: a GPU object is one slot of one node). */
  private final Map<YarnGpu, Running> onGpu = new HashMap<>();
  private final StandbySwitching standbys;
  private final PendingKeys<ApplicationId> asksChanged = new PendingKeys<>();
  /** Warm containers whose AM reported that their next task started. */
  private final PendingKeys<ContainerId> continued = new PendingKeys<>();
  /** Warm containers whose AM reported that their task ended and asked to park them. */
  private final PendingKeys<ContainerId> parking = new PendingKeys<>();
  /** Containers whose parking was refused: killed at the next {@link #prelaunch}. */
  private final List<RMContainer> refused = new ArrayList<>();
  /** Job and GPU type of each running task container, for AM RPC threads. */
  private final Map<ContainerId, Warm> warm = new ConcurrentHashMap<>();

  /** {@code givesBack}: the job's AM speaks the Hare protocol, so it may be asked for the GPU. */
  private record Warm(YarnJob job, GpuType type, boolean givesBack) {}
  private final List<TaskListener> listeners;
  private final IsolatedNodes isolation;
  private boolean retry;

  /**
   * @param listeners told of asks, starts and ends; read at each call (may grow later)
   * @param isolation the device each GPU container is told, and where YARN assigns it
   * @param standbys how GPUs switch between jobs (standbys on or off), given the scheduler as
   *     the standbys see it
   */
  GpuTasks(PolicyHost host, GpuInventory inventory, ContainerPlacer placer,
      List<TaskListener> listeners, IsolatedNodes isolation,
      Function<StandbyHost, StandbySwitching> standbys) {
    this.host = host;
    this.inventory = inventory;
    this.placer = placer;
    this.listeners = listeners;
    this.isolation = isolation;
    this.standbys = standbys.apply(
        new SchedulerForStandbys(this, host, inventory, placer, isolation));
  }

  /** Standby containers waiting now. */
  int standbyCount() {
    return standbys.count();
  }

  /**
   * Resources promotions added to live containers, less those parkings took back, since the
   * last call (then zero).
   */
  Resource takeGrowth() {
    return standbys.takeGrowth();
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
   * container, without its GPU, as a standby for the job's next tasks
   * ({@link StandbySwitching#park}); done at the next pass. Any thread.
   */
  void parking(ContainerId id) {
    if (warm.containsKey(id)) {
      parking.add(id);
    }
  }

  /**
   * Of {@code containers}, the GPU task containers the policy wants back (warm ones) from an AM
   * that speaks the Hare protocol, and those on a node being decommissioned ({@code leaving}),
   * which would otherwise take task after task and keep the node from draining; any other AM's
   * containers run until they end.
   */
  Set<ContainerId> revoked(Collection<ContainerId> containers, Predicate<NodeId> leaving) {
    Set<ContainerId> out = new HashSet<>();
    for (ContainerId id : containers) {
      Warm w = warm.get(id);
      if (w != null && w.givesBack() && (!host.keepsWarm(w.job().id(), w.type())
          || host.queueGate().yields(w.job().queue()) // lent GPUs come back at task ends
          || onLeavingNode(id, leaving))) {
        out.add(id);
      }
    }
    return out;
  }

  private boolean onLeavingNode(ContainerId id, Predicate<NodeId> leaving) {
    Running r = running.get(id);
    return r != null && leaving.test(r.gpu().nodeId());
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
      for (ContainerId id : continued.take()) {
        Running r = running.get(id);
        if (r != null) {
          Running next = continueTask(id, r, nowMs, r.measured(), true);
          running.put(id, next);
          onGpu.put(r.gpu(), next);
        }
      }
    }
    if (!parking.isEmpty()) {
      for (ContainerId id : parking.take()) {
        park(id, attempts, nodes, nowMs);
      }
    }
    if (!asksChanged.isEmpty()) {
      for (ApplicationId id : asksChanged.take()) {
        YarnJob j = jobs.get(id);
        HareAppAttempt a = attempts.apply(id);
        if (j != null) {
          if (j.awaitsProgress() && a != null && !a.isStopped()) {
            host.progressReported(j, a.reportedProgress(), nowMs);
          }
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
    if (host.planInstalled()) { // before a re-plan this pass started: it installs first
      for (TaskListener l : listeners) {
        l.planInstalled(nowMs);
      }
    }
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
        c = standbys.promote(attempt, job, node, gpu);
        if (c == null) {
          c = placeGpuTask(attempt, node, taskTags(standbys.parkable(job, gpu.nodeId()), gpu));
          if (c != null) {
            standbys.taskPlaced(job, gpu.nodeId());
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
      warm.put(c.getContainerId(), new Warm(job, gpu.type(), job.speaksHare()));
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
   * becomes a standby of its job ({@link StandbySwitching#park}), or, refused (standbys off,
   * among others), is killed at the next {@link #prelaunch}: it runs nothing, nothing is lost.
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
    if (!standbys.park(c, a, r.job(), nodes.apply(r.gpu().nodeId()), nowMs)) {
      refused.add(c);
      LOG.debug("container {} of {} not parked; it ends", id, r.job());
    }
  }

  /**
   * At a heartbeat of {@code node}: the containers whose parking was refused since the last
   * one, to kill, and what the standbys made and no longer need there
   * ({@link StandbySwitching#prelaunch}).
   */
  StandbySwitching.Prelaunch prelaunch(Function<ApplicationId, HareAppAttempt> attempts,
      FiCaSchedulerNode node, long nowMs, boolean draining) {
    List<RMContainer> unneeded = new ArrayList<>(refused);
    refused.clear();
    if (draining) { // no standby waits for a GPU of a node that takes no new task
      return new StandbySwitching.Prelaunch(List.of(), unneeded);
    }
    StandbySwitching.Prelaunch p = standbys.prelaunch(attempts, node, nowMs);
    unneeded.addAll(p.unneeded());
    return new StandbySwitching.Prelaunch(p.made(), unneeded);
  }

  /** The GPUs that run a task now (a view). */
  Collection<YarnGpu> busyGpus() {
    return Collections.unmodifiableSet(onGpu.keySet());
  }

  /** The job whose task runs on {@code gpu}; null if none. */
  YarnJob runningOn(YarnGpu gpu) {
    Running r = onGpu.get(gpu);
    return r == null ? null : r.job();
  }

  /** When the task on busy {@code gpu} should end by its job's estimate; never if unknown. */
  long expectedEndMs(YarnGpu gpu) {
    Running r = onGpu.get(gpu);
    return r == null ? Long.MAX_VALUE : expectedEndMs(r, gpu);
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
    long n = 0;
    for (SchedulerRequestKey key : new ArrayList<>(attempt.getSchedulerKeys())) {
      PendingAsk ask = attempt.pending(key);
      if (ask.getCount() > 0 && ContainerPlacer.isGpuAsk(ask.getPerAllocationResource())) {
        n += ask.getCount();
      }
    }
    return (int) Math.min(n, MAX_READY);
  }

  /**
   * A container ended. A GPU task that exited 0 after finishing normally is a computed task;
   * any other end frees the GPU as a failed task.
   */
  void containerCompleted(RMContainer c, ContainerStatus status, RMContainerEventType event,
      long nowMs) {
    if (standbys.ended(c.getContainerId())) {
      return; // a standby ran no task
    }
    boolean ok = event == RMContainerEventType.FINISHED && status != null
        && status.getExitStatus() == ContainerExitStatus.SUCCESS;
    ended(c.getContainerId(), ok, nowMs);
  }

  /**
   * The task of container {@code id}, if it runs one, ended: its GPU frees for the policy. A
   * "next task started" its AM reported that no pass has taken yet counts first: the task before
   * it computed, and the end is the next one's.
   */
  private void ended(ContainerId id, boolean ok, long nowMs) {
    Running r = running.remove(id);
    warm.remove(id);
    boolean continuedUntaken = continued.remove(id);
    if (r == null) {
      return;
    }
    onGpu.remove(r.gpu(), r);
    if (continuedUntaken) {
      // both tasks ran between r's start and now, split at a time the scheduler does not know:
      // neither refines the job's task times
      r = continueTask(id, r, nowMs, false, false);
    }
    host.taskEnded(r.job(), r.gpu(), nowMs, ok, Math.max(1, nowMs - r.startMs()),
        r.measured());
    for (TaskListener l : listeners) {
      l.taskEnded(r.job().appId(), id, ok, nowMs);
    }
  }

  /**
   * Counts the task of {@code r} in warm container {@code id} as computed and the job's next
   * task as started there now, on the same GPU.
   *
   * @param measured whether {@code r}'s run refines the job's task times
   * @param nextMeasured whether the next task's will
   * @return the next task
   */
  private Running continueTask(ContainerId id, Running r, long nowMs, boolean measured,
      boolean nextMeasured) {
    host.taskContinued(r.job(), r.gpu(), nowMs, Math.max(1, nowMs - r.startMs()), measured);
    for (TaskListener l : listeners) {
      l.taskEnded(r.job().appId(), id, true, nowMs);
      l.taskStarted(r.job().appId(), id, r.gpu().nodeId(), r.gpu().type().name(), nowMs);
    }
    return new Running(r.job(), r.gpu(), nowMs, nextMeasured);
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
    warm.put(c.getContainerId(), new Warm(job, gpu.type(), job.speaksHare()));
    host.taskRecovered(job, gpu, nowMs);
    LOG.info("recovered task of {} on {}: container {}", job, gpu, c.getContainerId());
    return true;
  }
}
