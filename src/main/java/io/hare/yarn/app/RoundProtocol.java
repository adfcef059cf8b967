package io.hare.yarn.app;

import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.exceptions.ResourceNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApplicationMaster's round logic, free of YARN clients (they come in as ports).
 *
 * <ol>
 *   <li>{@link #start}: reads the checkpoint; rounds already done are skipped (a new AM attempt
 *       resumes after the last finished round). Round r begins: k asks for one-GPU containers,
 *       each under its own allocation request id.
 *   <li>{@link #onContainersAllocated}: each container goes to the lowest-index task of the round
 *       still waiting, at once (the protocol never waits for k containers); the ask it was
 *       allocated for is withdrawn with {@code removeContainerRequest}. A container no ask waits
 *       for is released.
 *   <li>{@link #onContainersCompleted}: exit 0 marks the task done. A task's own failure (a
 *       non-zero exit of its process) is a failed attempt: the task asks again, on any GPU, until
 *       it has failed {@code task.max-attempts} times, which fails the job. A container lost
 *       through no fault of its task (YARN's exit statuses for a lost node, failed disks,
 *       preemption and kills, or a start the NodeManager refused, {@link #onStartFailed};
 *       {@link TaskEnds}) is asked again without counting, up to
 *       {@link TaskEnds#MAX_LOST_ATTEMPTS} times per task and round; when its node is to blame
 *       (a refused start, a lost node, failed disks), the node is blacklisted for a while
 *       ({@link NodeBlacklist}), so the retry goes elsewhere.
 *   <li>When all k tasks are done (the barrier), the sync step runs; on its success the round is
 *       checkpointed, progress becomes rounds done / R, and round r+1 asks. A failed sync step
 *       fails the job (no retry: a sync step that half-wrote the model cannot be trusted).
 *   <li>The job ends after R rounds, or at the first failure, with a {@link JobOutcome} whose
 *       diagnostics name the failing task, its exit code and its log.
 * </ol>
 *
 * <p>Standby containers (warm containers only): a switch of a GPU from another job's task to
 * this job's costs a container launch, hundreds of ms. So, shortly before a GPU frees, the
 * scheduler may give the job next in line for it a standby: a container on that node without the
 * GPU, beyond the asks (allocation request id 0). {@link #onContainersAllocated} starts it at
 * once, withdrawing no ask; its runner connects and waits ({@link #onRunnerReady}). When the GPU
 * frees and goes to this job, the scheduler promotes the standby: {@link #onContainersUpdated}
 * gets it back with the GPU, under the id of the ask it satisfied; that ask is withdrawn, the
 * round's next waiting task is bound to it, the NodeManager is told its new resource, and the
 * runner is told to run the task. The switch then costs a heartbeat and a line over a socket.
 * From then on it is a warm container like any other. The scheduler may kill a standby it
 * has not promoted at any time: that end is no task's. Standbys are released when the job ends.
 * A warm container with no next task now (at the barrier, or asked back) while the job has tasks
 * to come is parked rather than retired, if the scheduler tagged it parkable: it gives its GPU
 * back and waits as a standby of the job ({@link #onRunnerTaskEnded}).
 *
 * <p>Thread-safe: every entry point is synchronized (the AMRM, NM and sync callbacks come from
 * different threads). Port calls are made under the lock and must not block.
 */
public final class RoundProtocol {

  private static final Logger LOG = LoggerFactory.getLogger(RoundProtocol.class);

  private final HareJobSpec spec;
  private final String jobId;
  private final String workDir;
  private final TaskLaunch launch;
  private final ContainerAsks asks;
  private final ContainerLauncher launcher;
  private final SyncStep sync;
  private final RoundCheckpoint checkpoint;
  private final GpuTypes gpuTypes;
  private final NodeBlacklist blacklist;

  /** Asks not yet satisfied, by allocation request id (each task ask has its own). */
  private final Map<Long, ContainerRequest> outstanding = new LinkedHashMap<>();
  private long nextRequestId = 1;
  private final Map<ContainerId, RoundTasks.Attempt> running = new HashMap<>();
  /** Warm containers the scheduler wants back: they run no further task. */
  private final Set<ContainerId> revoked = new HashSet<>();
  /** Warm containers told to exit after reporting their last task: their end carries no task. */
  private final Set<ContainerId> retiring = new HashSet<>();
  private final Standbys standbys = new Standbys();
  /** The AM's token generation ({@code TokenRefresher#generation}). */
  private final LongSupplier tokenGeneration;
  /** The token generation each live container was launched with. */
  private final Map<ContainerId, Long> launchedWith = new HashMap<>();
  private final CountDownLatch ended = new CountDownLatch(1);
  /** What the AM's heartbeat was last told: a standby waits for its GPU. */
  private boolean awaitingGpu;
  private RoundTasks tasks;
  private int roundsDone;
  private JobOutcome outcome;

  /** @param clockMs the time in ms, for how long a node stays blacklisted */
  public RoundProtocol(HareJobSpec spec, String jobId, String workDir, TaskLaunch launch,
      ContainerAsks asks, ContainerLauncher launcher, SyncStep sync, RoundCheckpoint checkpoint,
      GpuTypes gpuTypes, LongSupplier clockMs) {
    this(spec, jobId, workDir, launch, asks, launcher, sync, checkpoint, gpuTypes, clockMs,
        () -> 0);
  }

  /**
   * @param tokenGeneration the generation of the AM's tokens, which a container launched now
   *     carries ({@code io.hare.yarn.app.tokens.TokenRefresher}): a warm container of an older
   *     one runs no further task
   */
  public RoundProtocol(HareJobSpec spec, String jobId, String workDir, TaskLaunch launch,
      ContainerAsks asks, ContainerLauncher launcher, SyncStep sync, RoundCheckpoint checkpoint,
      GpuTypes gpuTypes, LongSupplier clockMs, LongSupplier tokenGeneration) {
    this.tokenGeneration = tokenGeneration;
    this.spec = spec;
    this.jobId = jobId;
    this.workDir = workDir;
    this.launch = launch;
    this.asks = asks;
    this.launcher = launcher;
    this.sync = sync;
    this.checkpoint = checkpoint;
    this.gpuTypes = gpuTypes;
    this.blacklist = new NodeBlacklist(asks, clockMs);
  }

  /** Resumes from the checkpoint and asks for the first unfinished round. */
  public synchronized void start() {
    try {
      roundsDone = checkpoint.roundsDone();
    } catch (IOException e) {
      end(false, "cannot read the round checkpoint in " + workDir + ": " + e.getMessage());
      return;
    }
    if (roundsDone > 0) {
      LOG.info("{}: resuming after {} of {} rounds (checkpoint)", jobId, roundsDone, spec.rounds());
    }
    if (roundsDone >= spec.rounds()) {
      end(true, "");
      return;
    }
    beginRound();
  }

  public synchronized void onContainersAllocated(List<Container> containers) {
    for (Container c : containers) {
      if (gpus(c) == 0) {
        standby(c); // beyond the asks: it satisfies none
        continue;
      }
      Optional<RoundTasks.Attempt> bound = bindNextTask(c);
      if (bound.isEmpty()) {
        LOG.info("{}: releasing surplus container {} (allocation request {})", jobId, c.getId(),
            c.getAllocationRequestId());
        asks.releaseAssignedContainer(c.getId());
        continue;
      }
      RoundTasks.Attempt a = bound.get();
      String type = gpuTypes.typeOf(c.getNodeId());
      LOG.info("{}: round {} task {} attempt {} on {} ({} GPU {})", jobId, a.round(), a.index(),
          a.number(), c.getId(), c.getNodeId(), type.isEmpty() ? "unknown" : type);
      launched(c);
      launcher.startContainer(c, launch.context(TaskEnv.withDevice(
          TaskEnv.forTask(spec, jobId, workDir, a.round(), a.index(), type), device(c))));
    }
    pollForStandbys();
  }

  public synchronized void onContainersCompleted(List<ContainerStatus> statuses) {
    for (ContainerStatus s : statuses) {
      launchedWith.remove(s.getContainerId());
      boolean unreported = standbys.unreported(s.getContainerId());
      if (standbys.forget(s.getContainerId())) {
        continue; // a standby the scheduler no longer needs: it ran nothing
      }
      revoked.remove(s.getContainerId());
      if (retiring.remove(s.getContainerId())) {
        continue; // a warm container whose runner reported all its tasks
      }
      RoundTasks.Attempt a = running.remove(s.getContainerId());
      if (a == null || outcome != null) {
        continue; // a released surplus container, or the job has ended
      }
      if (unreported) {
        ended(a, s, "standby container ended with exit code " + s.getExitStatus()
            + " before its runner reported the task");
      } else if (s.getExitStatus() == ContainerExitStatus.SUCCESS) {
        tasks.done(a.index());
        if (tasks.allDone()) {
          barrier();
        }
      } else {
        ended(a, s, "exit code " + s.getExitStatus());
      }
    }
    pollForStandbys();
  }

  /**
   * The task runner of a warm container reports that its current task exited with
   * {@code exitCode}. The result counts as the container's end would; then, unless the scheduler
   * revoked the container or the job has ended, the container runs the next task of the round
   * still waiting for one: its ask is withdrawn and the scheduler is told a task started there.
   * Otherwise the runner exits and the container's end is not a task result.
   *
   * @return the task the runner runs next, if any
   */
  public synchronized Optional<RunnerServer.Next> onRunnerTaskEnded(ContainerId id,
      int exitCode) {
    standbys.reported(id);
    RoundTasks.Attempt a = running.remove(id);
    if (a == null || outcome != null) {
      retiring.add(id);
      return Optional.empty();
    }
    if (exitCode != 0) {
      failed(a, "exit code " + exitCode, "reported by the container's task runner");
      retiring.add(id);
      return Optional.empty();
    }
    tasks.done(a.index());
    boolean lastRound = tasks.round() + 1 >= spec.rounds();
    if (tasks.allDone()) {
      Optional<RunnerServer.Next> after = retireOrPark(a.container(), !lastRound);
      barrier();
      return after;
    }
    Optional<Integer> next = tasks.nextWaiting();
    if (next.isEmpty() || revoked.contains(id) || outstanding.isEmpty() || stale(id)) {
      return retireOrPark(a.container(), next.isPresent() || !lastRound);
    }
    // the oldest ask stands for the task: any ask of the round is as good as another
    ContainerRequest taken = outstanding.remove(outstanding.keySet().iterator().next());
    asks.removeContainerRequest(taken);
    RoundTasks.Attempt n = tasks.assign(next.get(), a.container());
    running.put(id, n);
    asks.reportTaskStarted(a.container());
    LOG.info("{}: round {} task {} attempt {} follows in warm container {}", jobId, n.round(),
        n.index(), n.number(), id);
    return Optional.of(new RunnerServer.Next(n.round(), n.index(),
        device(a.container()).orElse(-1)));
  }

  /**
   * A warm container with no next task now: parked as a standby if the job has tasks to come
   * ({@code more}: another round, or tasks of this one still waiting) and the scheduler said it
   * takes the container back parked (allocation tag {@link JobTags#PARKABLE}, standbys on);
   * else it retires. Parked, its GPU goes back to the scheduler (a decrease to no GPU, {@link
   * ContainerAsks#reportParked}) and its runner waits, so that the job's next task there needs
   * no container launch. A container whose tokens are older than the AM's retires: a task run
   * there later would find them expired.
   */
  private Optional<RunnerServer.Next> retireOrPark(Container c, boolean more) {
    revoked.remove(c.getId());
    if (!more || !parkable(c) || outcome != null || stale(c.getId())) {
      if (stale(c.getId())) {
        LOG.info("{}: container {} retires after its task: its tokens predate the AM's refresh",
            jobId, c.getId());
      }
      retiring.add(c.getId());
      return Optional.empty();
    }
    standbys.park(c);
    asks.reportParked(c);
    LOG.info("{}: container {} parked after its task: it waits for the job's next task", jobId,
        c.getId());
    pollForStandbys();
    return Optional.of(RunnerServer.Next.PARK);
  }

  /**
   * The standby runner of container {@code id} is ready: the future completes with its first
   * task once the scheduler promotes the container, or with empty (exit) when it is given up.
   * An unknown container (ended, released, or no standby) gets empty at once.
   */
  public synchronized CompletableFuture<Optional<RunnerServer.Next>> onRunnerReady(
      ContainerId id) {
    return standbys.ready(id);
  }

  /**
   * Completes when the runner of container {@code id}, told to exit, may: once this AM's reports
   * about the container have reached the scheduler ({@link ContainerAsks#reportsSent}).
   */
  public CompletableFuture<Void> beforeExit(ContainerId id) {
    return asks.reportsSent(id);
  }

  /** The task container {@code id} runs, if any: the one its runner's next report is about. */
  public synchronized Optional<RunnerServer.Next> taskOf(ContainerId id) {
    RoundTasks.Attempt a = running.get(id);
    return a == null ? Optional.empty() : Optional.of(new RunnerServer.Next(a.round(), a.index()));
  }

  /** Containers whose runner may be connected: running a task, retiring, or standing by. */
  public synchronized int containersHeld() {
    return running.size() + retiring.size() + standbys.idleCount();
  }

  /**
   * Container updates from the ResourceManager. The one that counts is a standby's promotion
   * (INCREASE_RESOURCE to a GPU): the next waiting task of the round runs there. With no ask or
   * no task left for it, or after the job's end, the container is released, so that the
   * scheduler has its GPU back, and its runner exits. Other updates (the answers to this AM's
   * own reports, {@link ContainerAsks#reportTaskStarted}) change nothing.
   */
  public synchronized void onContainersUpdated(List<UpdatedContainer> updates) {
    for (UpdatedContainer u : updates) {
      Container c = u.getContainer();
      if (u.getUpdateType() == ContainerUpdateType.DECREASE_RESOURCE && gpus(c) == 0
          && standbys.isIdle(c.getId())) {
        launcher.updateResource(c); // parked: the NodeManager's view too, e.g. for recovery
        continue;
      }
      if (u.getUpdateType() != ContainerUpdateType.INCREASE_RESOURCE) {
        continue;
      }
      if (!standbys.isIdle(c.getId())) {
        resendAsk(c);
        continue;
      }
      if (gpus(c) < 1) {
        LOG.warn("{}: standby {} was increased without a GPU ({}); it keeps waiting", jobId,
            c.getId(), c.getResource());
        continue;
      }
      if (stale(c.getId())) {
        // promoted between a refresh and onTokensRefreshed: it would run the task with the old
        // tokens, so it goes back and its ask is counted again
        standbys.forget(c.getId());
        asks.releaseAssignedContainer(c.getId());
        resendAsk(c);
        continue;
      }
      Optional<RoundTasks.Attempt> bound = bindNextTask(c);
      if (bound.isEmpty()) {
        LOG.info("{}: releasing promoted standby {} (allocation request {}): no task waits",
            jobId, c.getId(), c.getAllocationRequestId());
        standbys.forget(c.getId());
        asks.releaseAssignedContainer(c.getId());
        continue;
      }
      RoundTasks.Attempt a = bound.get();
      // the runner first: its GPU idles until it hears; the NodeManager's view can follow
      standbys.promote(c.getId(), new RunnerServer.Next(a.round(), a.index(),
          device(c).orElse(-1)));
      launcher.updateResource(c);
      String type = gpuTypes.typeOf(c.getNodeId());
      LOG.info("{}: round {} task {} attempt {} promoted standby container {} ({} GPU {})",
          jobId, a.round(), a.index(), a.number(), c.getId(), c.getNodeId(),
          type.isEmpty() ? "unknown" : type);
    }
    pollForStandbys();
  }

  /**
   * Gives GPU container {@code c} the round's next waiting task under the ask it satisfied (by
   * its allocation request id, else the oldest), withdrawing that ask; empty, with nothing
   * changed but the ask taken from the table, when no ask or task is left or the job ended.
   */
  private Optional<RoundTasks.Attempt> bindNextTask(Container c) {
    ContainerRequest satisfied = takeAsk(c.getAllocationRequestId());
    Optional<Integer> index = outcome == null && satisfied != null ? tasks.nextWaiting()
        : Optional.empty();
    if (index.isEmpty()) {
      return Optional.empty();
    }
    asks.removeContainerRequest(satisfied);
    RoundTasks.Attempt a = tasks.assign(index.get(), c);
    running.put(c.getId(), a);
    return Optional.of(a);
  }

  /**
   * The promotion of a standby this AM has already seen end or released: the scheduler took an
   * ask for a container that runs nothing. The ask is sent again, so the scheduler counts it
   * outstanding as this AM does (YARN's asks carry absolute counts); else its task would wait
   * for it forever.
   */
  private void resendAsk(Container c) {
    ContainerRequest r = outstanding.get(c.getAllocationRequestId());
    if (r == null || outcome != null || running.containsKey(c.getId())) {
      return;
    }
    LOG.info("{}: standby {} was promoted after it ended; asking again for its ask {}", jobId,
        c.getId(), c.getAllocationRequestId());
    asks.removeContainerRequest(r);
    asks.addContainerRequest(r);
  }

  /** Tells the AM's heartbeat when a standby starts or stops waiting for its GPU. */
  private void pollForStandbys() {
    boolean waiting = outcome == null && standbys.anyIdle();
    if (waiting != awaitingGpu) {
      awaitingGpu = waiting;
      asks.awaitingGpu(waiting);
    }
  }

  /**
   * The AM refreshed its tokens: containers launched from now on carry the new ones. Standbys
   * waiting for their GPU, launched with the old ones, are given up (their runners exit), so
   * that no task runs with tokens that will expire; warm containers running a task retire when
   * it ends ({@link #onRunnerTaskEnded}).
   */
  public synchronized void onTokensRefreshed() {
    for (ContainerId id : standbys.idleIds()) {
      if (stale(id)) {
        LOG.info("{}: releasing standby {}: its tokens predate the AM's refresh", jobId, id);
        standbys.forget(id);
        asks.releaseAssignedContainer(id);
      }
    }
    pollForStandbys();
  }

  /** Records the token generation container {@code c} is launched with (read before its tokens). */
  private void launched(Container c) {
    launchedWith.put(c.getId(), tokenGeneration.getAsLong());
  }

  /** Whether container {@code id} carries tokens older than the AM's current ones. */
  private boolean stale(ContainerId id) {
    Long at = launchedWith.get(id);
    return at != null && at < tokenGeneration.getAsLong();
  }

  /** The scheduler wants these containers back: they run no task after their current one. */
  public synchronized void revoke(Collection<ContainerId> ids) {
    for (ContainerId id : ids) {
      if (running.containsKey(id) && revoked.add(id)) {
        LOG.info("{}: the scheduler takes back {} after its current task", jobId, id);
      }
    }
  }

  /**
   * The NodeManager could not start a task container (it refused, or could not be reached): the
   * node's fault, not the task's; the task is asked again away from that node.
   */
  public synchronized void onStartFailed(ContainerId id, Throwable t) {
    launchedWith.remove(id);
    RoundTasks.Attempt a = running.remove(id);
    boolean standby = standbys.forget(id);
    if (a != null && outcome == null) {
      asks.releaseAssignedContainer(id);
      lost(a, "container start failed", String.valueOf(t.getMessage()), true);
    } else if (standby) {
      LOG.info("{}: standby {} could not start ({}); releasing it", jobId, id, t.getMessage());
      asks.releaseAssignedContainer(id);
    }
    pollForStandbys();
  }

  /**
   * Called between two heartbeats of the AM to the ResourceManager (with the progress asked
   * for the next one): blacklisted nodes whose hold ended are taken back with that heartbeat.
   */
  public synchronized void beforeHeartbeat() {
    blacklist.expire();
  }

  /** Node reports from the RM (state changes): a node RUNNING again leaves the blacklist. */
  public synchronized void onNodesUpdated(List<NodeReport> nodes) {
    for (NodeReport n : nodes) {
      if (n.getNodeState() == NodeState.RUNNING) {
        blacklist.healthy(n.getNodeId().getHost());
      }
    }
  }

  /**
   * YARN gave up on this AM attempt (shutdown request, AMRM error, e.g. an RM restarting under a
   * heartbeat): the attempt ends without deciding the job, so another attempt can resume it.
   */
  public synchronized void abort(String why) {
    end(false, why, false);
  }

  /** Rounds done over total, for the RM's progress. */
  public synchronized float progress() {
    return (float) roundsDone / spec.rounds();
  }

  /** Rounds done and the round in progress with its tasks done, for a failed job's diagnostics. */
  public synchronized JobStop stop() {
    return tasks == null ? new JobStop(roundsDone, spec.rounds(), -1, 0, 0)
        : new JobStop(roundsDone, spec.rounds(), tasks.round(), tasks.done(),
            spec.tasksPerRound());
  }

  public synchronized Optional<JobOutcome> outcome() {
    return Optional.ofNullable(outcome);
  }

  /** Waits for the end; empty on timeout. */
  public Optional<JobOutcome> await(long timeout, TimeUnit unit) throws InterruptedException {
    ended.await(timeout, unit);
    return outcome();
  }

  /**
   * A container without a GPU: a standby, started at once with a runner that waits for a task.
   * Without task runners (it could not wait) or after the job's end it goes back at once.
   */
  private void standby(Container c) {
    if (!launch.warm() || outcome != null || tasks == null) {
      LOG.info("{}: releasing standby container {}: {}", jobId, c.getId(),
          launch.warm() ? "the job has ended" : "no task runners (task reuse is off)");
      asks.releaseAssignedContainer(c.getId());
      return;
    }
    standbys.add(c);
    String type = gpuTypes.typeOf(c.getNodeId());
    LOG.info("{}: standby container {} on {} ({} GPU {}) waits for a task", jobId, c.getId(),
        c.getNodeId(), type.isEmpty() ? "unknown" : type);
    launched(c);
    launcher.startContainer(c, launch.standbyContext(
        TaskEnv.forStandby(spec, jobId, workDir, tasks.round(), type,
            GpuDevices.expected(c.getAllocationTags()))));
  }

  /** The ask a container was allocated for, else the oldest (a scheduler ignoring the ids). */
  private ContainerRequest takeAsk(long allocationRequestId) {
    ContainerRequest r = outstanding.remove(allocationRequestId);
    if (r == null && !outstanding.isEmpty()) {
      r = outstanding.remove(outstanding.keySet().iterator().next());
    }
    return r;
  }

  /** The device the scheduler named for {@code c} ({@link GpuDevices}); none: YARN's. */
  private static OptionalInt device(Container c) {
    return GpuDevices.of(c.getAllocationTags());
  }

  private static boolean parkable(Container c) {
    return c.getAllocationTags() != null && c.getAllocationTags().contains(JobTags.PARKABLE);
  }

  /** The container's {@code yarn.io/gpu}; 0 when the cluster declares no GPU type. */
  private static long gpus(Container c) {
    try {
      return c.getResource().getResourceValue(ResourceInformation.GPU_URI);
    } catch (ResourceNotFoundException e) {
      return 0;
    }
  }

  private void beginRound() {
    tasks = new RoundTasks(roundsDone, spec.tasksPerRound());
    LOG.info("{}: round {} of {}: asking for {} containers", jobId, roundsDone + 1, spec.rounds(),
        spec.tasksPerRound());
    for (int i = 0; i < spec.tasksPerRound(); i++) {
      ask();
    }
  }

  /**
   * One ask for one task, with its own allocation request id: YARN counts asks per id, so an
   * update the AM sends before it has seen a container allocated for one id cannot put that
   * task back as pending (AMRMClient's absolute counts over-allocate when asks share a key).
   */
  private void ask() {
    ContainerRequest r = launch.request(nextRequestId++);
    outstanding.put(r.getAllocationRequestId(), r);
    asks.addContainerRequest(r);
  }

  /** A task container ended unsuccessfully: the task's own failure, or lost ({@link TaskEnds}). */
  private void ended(RoundTasks.Attempt a, ContainerStatus s, String what) {
    if (TaskEnds.lost(s.getExitStatus())) {
      lost(a, what, s.getDiagnostics(), TaskEnds.blamesNode(s.getExitStatus()));
    } else {
      failed(a, what, s.getDiagnostics());
    }
  }

  private void failed(RoundTasks.Attempt a, String what, String diagnostics) {
    int n = tasks.failed(a.index());
    LOG.warn("{}: round {} task {} attempt {} failed: {} ({})", jobId, a.round(), a.index(),
        a.number(), what, diagnostics);
    if (n >= spec.taskMaxAttempts()) {
      end(false, "round " + a.round() + " task " + a.index() + " failed " + n
          + (n == 1 ? " time" : " times") + "; last attempt: " + lastAttempt(a, what)
          + diagnostics);
      return;
    }
    ask();
  }

  /**
   * The attempt's container was lost through no fault of its task: asked again without counting
   * against {@code task.max-attempts}, away from its node if the node is to blame; after
   * {@link TaskEnds#MAX_LOST_ATTEMPTS} losses the job fails all the same.
   */
  private void lost(RoundTasks.Attempt a, String what, String diagnostics, boolean blameNode) {
    int n = tasks.lost(a.index());
    LOG.warn("{}: round {} task {} attempt {} lost to its node or the cluster ({} of at most {};"
        + " not counted against {}): {} ({})", jobId, a.round(), a.index(), a.number(), n,
        TaskEnds.MAX_LOST_ATTEMPTS, AppKeys.TASK_MAX_ATTEMPTS, what, diagnostics);
    if (blameNode) {
      blacklist.add(a.container().getNodeId().getHost());
    }
    if (n >= TaskEnds.MAX_LOST_ATTEMPTS) {
      end(false, "round " + a.round() + " task " + a.index() + " lost " + n + " attempts to"
          + " node or cluster failures, the most a task may (these do not count against "
          + AppKeys.TASK_MAX_ATTEMPTS + "); last attempt: " + lastAttempt(a, what)
          + diagnostics);
      return;
    }
    ask();
  }

  /** What failed, where, and where its logs are, for a job's diagnostics. */
  private static String lastAttempt(RoundTasks.Attempt a, String what) {
    return what + " on container " + a.container().getId() + " at "
        + a.container().getNodeId() + "; logs: yarn logs -applicationId "
        + a.container().getId().getApplicationAttemptId().getApplicationId() + " -containerId "
        + a.container().getId() + " (or " + a.container().getNodeHttpAddress()
        + "/node/containerlogs/" + a.container().getId() + "); ";
  }

  private void barrier() {
    int round = tasks.round();
    if (!spec.hasSync()) {
      roundFinished(round);
      return;
    }
    LOG.info("{}: round {} barrier: running the sync step", jobId, round);
    sync.start(round, code -> syncExited(round, code));
  }

  private synchronized void syncExited(int round, int code) {
    if (outcome != null) {
      return;
    }
    if (code != 0) {
      end(false, "sync step of round " + round + " exited with code " + code + "; output: "
          + sync.logLocation(round));
      return;
    }
    roundFinished(round);
  }

  private void roundFinished(int round) {
    try {
      checkpoint.save(round + 1);
    } catch (IOException e) {
      end(false, "round " + round + " done but its checkpoint could not be written in "
          + workDir + ": " + e.getMessage());
      return;
    }
    roundsDone = round + 1;
    if (roundsDone == spec.rounds()) {
      end(true, "");
    } else {
      beginRound();
    }
  }

  private void end(boolean ok, String diagnostics) {
    end(ok, diagnostics, true);
  }

  private void end(boolean ok, String diagnostics, boolean over) {
    if (outcome != null) {
      return;
    }
    outcome = new JobOutcome(ok, roundsDone, diagnostics, over);
    LOG.info("{}: ended, {} after {} of {} rounds {}", jobId, ok ? "succeeded" : "failed",
        roundsDone, spec.rounds(), diagnostics);
    // pending asks would keep YARN allocating for a job that is over
    outstanding.values().forEach(asks::removeContainerRequest);
    outstanding.clear();
    // a standby would hold its node's memory for a job that is over
    standbys.forgetIdle().forEach(asks::releaseAssignedContainer);
    pollForStandbys();
    ended.countDown();
  }
}
