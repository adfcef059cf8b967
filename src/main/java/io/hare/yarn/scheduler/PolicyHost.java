package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.plan.Forecast;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.Replan;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts a {@link SchedulingPolicy} in the ResourceManager as {@code io.hare.sim.Simulator} hosts
 * it in simulation: it keeps the {@link ClusterView} (GPUs from the {@link GpuInventory}, jobs as
 * {@link YarnJob}s), turns YARN facts into the policy's callbacks, and runs a <em>pass</em>:
 * re-plan if the policy asks and the re-plan interval has passed, then offer every free GPU of
 * the cluster to {@link SchedulingPolicy#assign} and check each answer against the rules.
 *
 * <p><b>Callbacks.</b> A job arrives when it first has outstanding GPU asks. A GPU container
 * allocated is a task started; one that ends with exit status 0 is a task computed (its run
 * time refines the job's estimate), any other end (failure, kill, release, lost node) a task
 * failed. When a job's asks grow after its finished tasks completed a round, its round barrier
 * cleared ({@code onRoundDone}). Asks that grow otherwise (a task asked again after a failure)
 * are announced as {@code onTasksReady}. A job ends when its application is removed.
 *
 * <p><b>Rules.</b> An answer that breaks the policy contract (a GPU not offered or given twice,
 * a job without a ready task, a type the job cannot run on) is a policy bug; inside the RM it is
 * logged and skipped rather than thrown, so one bad decision never takes the RM down.
 *
 * <p><b>Threading.</b> The scheduler calls this class under its monitor (one thread at a time).
 * The policy is called only under the {@link PolicyGate} lock: callbacks and
 * {@link SchedulingPolicy#assign} from the scheduler thread, {@link SchedulingPolicy#replan}
 * from the {@link Replanner}'s thread. What the policy reads (this {@link ClusterView}, the
 * {@link YarnJob} and {@link YarnGpu} views) is a copy published only under that lock, so a
 * background re-plan sees a state that does not move under it (the view's job and GPU lists are
 * copied when a pass enters, the jobs' and GPUs' counts at every callback). A policy that splits
 * its re-plan ({@link SchedulingPolicy#startReplan}) takes its snapshot in the pass; only the
 * solve runs on the other thread, passes meanwhile place by the previous plan, and the first pass
 * after the solve installs the new one before it assigns. For a policy that does not split, while
 * its re-plan is in flight a pass places nothing through the policy and callbacks wait in the
 * gate's queue. Either way the heartbeat never waits for a solve. A task's measured time refines
 * the task-time estimates ({@link TaskTimeSource}) when the policy is told of the task, in the
 * gate, not when YARN reports it: a re-plan reads the estimates of exactly the callbacks it was
 * given (a split one only in its snapshot), so a task that ends during a solve cannot change a
 * close call halfway through it, and the simulator's replay of a run ({@code io.hare.demo.Replay},
 * which refines them at the same point) decides as the RM did.
 */
final class PolicyHost implements ClusterView {

  private static final Logger LOG = LoggerFactory.getLogger(PolicyHost.class);

  private static final Comparator<YarnJob> ARRIVAL = Comparator
      .comparingLong(YarnJob::arrivalMs).thenComparing(YarnJob::appId);

  private final SchedulingPolicy policy;
  private final GpuInventory inventory;
  private final TaskTimeSource times;
  private final long replanIntervalMs;
  private final long passMinIntervalMs;
  /** When the last pass began (the scheduler's clock); far in the past before the first. */
  private long lastPassMs = Long.MIN_VALUE / 2;
  private long passes;
  private final PolicyGate gate = new PolicyGate(this::publish);
  private final QueueGate queueGate = new QueueGate();
  private final Replanner replanner;

  private final Map<String, YarnJob> active = new HashMap<>();
  private final TreeMap<YarnJob, YarnJob> ordered = new TreeMap<>(ARRIVAL);
  /** The jobs the policy sees, in arrival order; changed only by {@link #publishViews}. */
  private final ArrayList<YarnJob> shownList = new ArrayList<>();
  private final List<YarnJob> jobList = Collections.unmodifiableList(shownList);
  /** The same jobs by id, for the policy's lookups; changed only by {@link #publishViews}. */
  private final Map<String, YarnJob> shownJobs = new HashMap<>();
  /** Jobs announced or done since the last publish (a job may be listed more than once). */
  private final List<YarnJob> jobsChanged = new ArrayList<>();
  /** More changes than this (and than an eighth of the jobs) rebuild the shown jobs whole. */
  private static final int REBUILD_AT = 64;
  /** Jobs to publish, each once ({@link YarnJob#touched}); see {@link GpuInventory#drainTouched}. */
  private final List<YarnJob> touchedJobs = new ArrayList<>();
  private List<YarnGpu> shownGpus = List.of();
  /**
   * Jobs in line per GPU type that standbys are made for: enough to see past a few jobs whose
   * ready tasks the GPUs ending soon on one node will take; each more costs a scan per pass.
   */
  static final int LINE = 4;
  private long gpusVersion = -1;
  private OptionalLong wakeAt = OptionalLong.empty();
  private long readyTotal;
  private boolean dirty = true;
  private boolean consulted;
  /** First in line per type for warm GPUs, or null when the policy keeps none. */
  private volatile Map<GpuType, String> warmFirst;
  /** The jobs in line, by GPU type ({@link #line}); null: none. */
  private volatile Map<GpuType, List<String>> warmLine;
  private boolean replanStarted;
  private boolean planInstalled;
  private long lastReplanMs = Long.MIN_VALUE;
  /**
   * When the least interval between two re-plans ends, after a pass it held back from asking
   * the policy for one; Long.MAX_VALUE: none held. A pass is due then, so a re-plan the policy
   * wants runs once the interval has passed rather than at whatever event comes next (on a quiet
   * cluster, a round's end seconds later, while the jobs that arrived run by the stand-in
   * order).
   */
  private long heldReplanAtMs = Long.MAX_VALUE;
  private boolean countsStale = true;
  private Map<GpuType, int[]> counts = Map.of();
  private List<GpuType> types = List.of();

  /**
   * @param passMinIntervalMs least time between two passes ({@link #passDue}); 0: none
   * @param replans runs re-plans: the RM's background thread, or a same-thread executor in
   *     tests
   * @param listener told each re-plan's snapshot and solve times (metrics)
   */
  PolicyHost(SchedulingPolicy policy, GpuInventory inventory, TaskTimeSource times,
      long replanIntervalMs, long passMinIntervalMs, Executor replans,
      ReplanListener listener) {
    this.policy = policy;
    this.inventory = inventory;
    this.times = times;
    this.replanIntervalMs = replanIntervalMs;
    this.passMinIntervalMs = passMinIntervalMs;
    this.replanner = new Replanner(policy, this, gate, replans, listener);
  }

  SchedulingPolicy policy() {
    return policy;
  }

  /** The queues' guarantees and maxima around each offer ({@link QueueGate}). */
  QueueGate queueGate() {
    return queueGate;
  }

  long replans() {
    return replanner.replans();
  }

  /** Outstanding GPU asks of the jobs the policy knows. */
  long pendingTasks() {
    return readyTotal;
  }

  /** Something changed that may let the policy place more (GPUs, nodes, asks). */
  void markDirty() {
    dirty = true;
  }

  /**
   * The progress a recovered Hare job's AM reported ({@link YarnJob#restoreRounds}): when it
   * restores rounds, the policy ranks the job anew by the work it has left.
   */
  void progressReported(YarnJob job, float progress, long nowMs) {
    if (!job.restoreRounds(progress)) {
      return;
    }
    touch(job);
    if (job.announced) {
      job.roundsNotified = job.liveRoundsDone(); // no round barrier: rounds done long ago
      dirty = true;
      gate.call(() -> policy.onTasksReady(job, nowMs));
    }
  }

  /** The job's outstanding one-GPU asks are now {@code outstanding}. */
  void asksChanged(YarnJob job, int outstanding, long nowMs) {
    int before = job.ready;
    int grew = job.setReady(outstanding);
    touch(job);
    if (!job.announced) {
      if (outstanding > 0) {
        announce(job, nowMs);
      }
      return;
    }
    readyTotal += outstanding - before;
    if (grew > 0) {
      dirty = true;
      if (job.liveRoundsDone() > job.roundsNotified) {
        job.roundsNotified = job.liveRoundsDone();
        gate.call(() -> policy.onRoundDone(job, nowMs));
      } else {
        gate.call(() -> policy.onTasksReady(job, nowMs));
      }
    }
    if (job.takeOverran()) {
      // the size the job declared, which ranked it, no longer holds: a plan ranks it anew
      gate.call(() -> policy.onTasksReady(job, nowMs));
    }
  }

  private void announce(YarnJob job, long nowMs) {
    job.announced = true;
    job.roundsNotified = job.liveRoundsDone();
    active.put(job.id(), job);
    ordered.put(job, job);
    jobsChanged.add(job);
    readyTotal += job.ready;
    dirty = true;
    gate.call(() -> policy.onJobArrived(job, nowMs));
  }

  /**
   * After an RM restart, a task container of {@code job} that its NodeManager reported running
   * holds {@code gpu}. A job the policy has not heard of arrives first (possibly with no ready
   * task: its AM re-sends its asks after re-registering).
   */
  void taskRecovered(YarnJob job, YarnGpu gpu, long nowMs) {
    if (!job.announced) {
      announce(job, nowMs);
    }
    inventory.start(gpu, job.id());
    job.running++;
    job.setReady(job.ready); // the peak demand counts the running task
    touch(job);
    dirty = true;
    gate.call(() -> policy.onTaskStarted(job, gpu, nowMs));
  }

  void taskStarted(YarnJob job, YarnGpu gpu, long nowMs) {
    inventory.start(gpu, job.id());
    job.ready--;
    job.running++;
    touch(job);
    if (job.announced) {
      readyTotal--;
    }
    gate.call(() -> policy.onTaskStarted(job, gpu, nowMs));
  }

  /**
   * A GPU container of {@code job} ended; {@code ok} when it exited with status 0;
   * {@code measured} when {@code runMs} is its whole run (false for a recovered container, whose
   * start the scheduler does not know: it does not refine the estimate).
   */
  void taskEnded(YarnJob job, YarnGpu gpu, long nowMs, boolean ok, long runMs,
      boolean measured) {
    inventory.release(gpu);
    job.running--;
    touch(job);
    dirty = true;
    if (ok) {
      job.tasksDone++;
      gate.call(() -> computed(job, gpu, nowMs, runMs, measured));
    } else {
      gate.call(() -> policy.onTaskFailed(job, gpu, nowMs));
    }
  }

  /**
   * In the gate: a task's measured time refines its job's estimates as the policy hears of it
   * (see the class comment), never while a re-plan reads them.
   */
  private void computed(YarnJob job, YarnGpu gpu, long nowMs, long runMs, boolean measured) {
    if (measured) {
      times.observe(job.id(), gpu.type(), runMs);
    }
    policy.onTaskComputed(job, gpu, nowMs, runMs);
  }

  void jobDone(YarnJob job, long nowMs) {
    if (active.remove(job.id()) != null) {
      ordered.remove(job);
      jobsChanged.add(job);
      readyTotal -= job.ready;
      dirty = true;
      touch(job);
      gate.call(() -> policy.onJobDone(job, nowMs));
    }
  }

  /**
   * Whether the last {@link #pass} brought the policy up to date and let it decide (it may still
   * have placed nothing); false when a re-plan in flight, or one it started, kept it out.
   */
  boolean consulted() {
    return consulted;
  }

  /** Passes run so far. */
  long passes() {
    return passes;
  }

  /** Whether the last {@link #pass} started a re-plan (on the state it had just published). */
  boolean replanStarted() {
    return replanStarted;
  }

  /**
   * Whether the last {@link #pass} installed a split re-plan's plan, before it assigned: one that
   * an earlier pass started, or its own where the executor solved it on the same thread.
   */
  boolean planInstalled() {
    return planInstalled;
  }

  /**
   * Whether a pass could place anything or the policy wants time now; cheap. Never within the
   * least interval of the last pass: what changed meanwhile stays recorded ({@code dirty}, the
   * gate's queue), and the first call after the interval answers for all of it.
   */
  boolean passDue(long nowMs) {
    if (nowMs - lastPassMs < passMinIntervalMs) {
      return false;
    }
    if (replanner.takePlanReady()) {
      dirty = true; // a background plan finished: use it
    }
    if (dirty || gate.pending() && !gate.replanInFlight()) {
      return true;
    }
    if (heldReplanAtMs <= nowMs) {
      return true;
    }
    OptionalLong wake = wakeAt;
    return wake.isPresent() && wake.getAsLong() <= nowMs && readyTotal > 0;
  }

  /**
   * Re-plans if due, then offers every free GPU; returns the valid assignments, which the caller
   * turns into containers and reports back through {@link #taskStarted}.
   */
  List<Assignment> pass(long nowMs) {
    consulted = false;
    replanStarted = false;
    planInstalled = false;
    lastPassMs = nowMs;
    passes++;
    if (!gate.enter()) {
      return List.of(); // a re-plan is in flight: its plan is used at a later heartbeat
    }
    try {
      publishViews();
      dirty = false;
      boolean mayReplan = lastReplanMs == Long.MIN_VALUE
          || nowMs - lastReplanMs >= replanIntervalMs;
      // asking the policy now would be its answer for now (some record the question): one more
      // pass once the interval is over lets it answer then
      heldReplanAtMs = mayReplan ? Long.MAX_VALUE : lastReplanMs + replanIntervalMs;
      boolean solving = replanner.solving(); // before the take: false, the result is visible
      install(replanner.takeSolved(), nowMs);
      if (mayReplan && !solving && policy.replanDue(nowMs)) {
        lastReplanMs = nowMs;
        replanStarted = true;
        long t0 = System.nanoTime();
        Optional<Replan> split = startReplan(nowMs);
        if (split.isPresent()) {
          replanner.snapshotTaken(System.nanoTime() - t0);
          replanner.solve(split.get()); // this pass goes on by the previous plan
          if (install(replanner.takeSolved(), nowMs)) {
            replanner.takePlanReady(); // solved by a same-thread executor: this pass uses it
          }
        } else {
          replanner.start(nowMs); // a same-thread executor has finished it on return
          if (gate.replanInFlight()) {
            dirty = true;
            return List.of();
          }
          replanner.takePlanReady(); // finished already: this pass uses it
        }
      }
      consulted = true;
      List<YarnGpu> free = inventory.free();
      if (queueGate.active()) { // every pass: it also says which warm GPUs go back
        return check(queueGate.assign(policy, this, ordered.keySet(), free, nowMs), nowMs);
      }
      if (readyTotal <= 0 || free.isEmpty()) {
        return List.of();
      }
      return check(policy.assign(this, Collections.unmodifiableList(free), nowMs), nowMs);
    } finally {
      wakeAt = policy.wakeUpAtMs();
      if (consulted) {
        publishFirstInLine(nowMs);
      }
      gate.exit();
    }
  }

  /**
   * The policy's {@link SchedulingPolicy#startReplan}, or where it threw a re-plan that keeps the
   * previous plan: a re-plan is the policy's own business, and one that fails keeps the plan it
   * had, as a failed solve does, without costing the heartbeat its pass.
   */
  private Optional<Replan> startReplan(long nowMs) {
    try {
      return policy.startReplan(this, nowMs);
    } catch (RuntimeException e) {
      LOG.error("{}: re-plan at {} ms failed in its snapshot; the previous plan stays",
          policy.name(), nowMs, e);
      return Optional.of(KEEP_PLAN);
    }
  }

  /** A re-plan that changes nothing. */
  private static final Replan KEEP_PLAN = () -> (cluster, nowMs) -> { };

  /**
   * Makes a solved split re-plan the policy's, in this pass before it assigns; false when there
   * is none.
   */
  private boolean install(Replan.Solved solved, long nowMs) {
    if (solved == null) {
      return false;
    }
    try {
      solved.install(this, nowMs);
    } catch (RuntimeException e) {
      LOG.error("{}: installing a re-plan at {} ms failed", policy.name(), nowMs, e);
    }
    planInstalled = true;
    return true;
  }

  /**
   * Who may keep a warm GPU of each type, as the policy sees it after this pass: read by AM RPC
   * threads ({@link #keepsWarm}) to tell an AM which of its containers to give back.
   */
  private void publishFirstInLine(long nowMs) {
    if (!policy.keepsWarmGpus()) {
      warmFirst = null;
      warmLine = null;
      return;
    }
    Map<GpuType, String> first = new HashMap<>();
    Map<GpuType, List<String>> line = new HashMap<>();
    for (GpuType t : gpuTypes()) {
      policy.firstInLine(this, t, nowMs).ifPresent(id -> first.put(t, id));
      // "" (no job keeps such a GPU warm) may still come with a line to prepare standbys for
      if (first.get(t) != null) {
        line.put(t, List.copyOf(policy.line(this, t, LINE, nowMs)));
      }
    }
    warmFirst = first;
    warmLine = line;
  }

  /**
   * Whether a warm container of {@code jobId} on a GPU of {@code type} may run the job's next
   * task when its current one ends, by the policy's last answer: only when the policy keeps warm
   * GPUs and no other job is first in line for the type. Any thread.
   */
  boolean keepsWarm(String jobId, GpuType type) {
    Map<GpuType, String> first = warmFirst;
    if (first == null) {
      return false;
    }
    String j = first.get(type);
    return j == null || j.equals(jobId);
  }

  /**
   * The job the policy's last answer puts first in line for a GPU of {@code type}; null when
   * none, or when the policy keeps no warm GPUs (it then says nothing of who goes next). Any
   * thread.
   */
  String firstInLine(GpuType type) {
    Map<GpuType, String> first = warmFirst;
    String j = first == null ? null : first.get(type);
    return j == null || j.isEmpty() ? null : j;
  }

  /** Changes (as an identity) whenever the policy's answer for {@link #line} is published. */
  Object lineVersion() {
    return warmLine;
  }

  /**
   * The jobs the policy's last answer puts in line for GPUs of {@code type}, the first in line
   * first, at most {@link #LINE} ({@link SchedulingPolicy#line}); empty when none.
   */
  List<String> line(GpuType type) {
    Map<GpuType, List<String>> all = warmLine;
    List<String> l = all == null ? null : all.get(type);
    return l == null ? List.of() : l;
  }

  /**
   * A warm container of {@code job} on {@code gpu} ended a task and started the job's next one at
   * once, reported by its AM: the GPU never frees. The ready task it took is withdrawn by the
   * AM's asks in the same heartbeat (absolute, so readiness is not touched here).
   */
  void taskContinued(YarnJob job, YarnGpu gpu, long nowMs, long runMs, boolean measured) {
    job.tasksDone++;
    touchedJobs.add(job);
    dirty = true;
    gate.call(() -> {
      computed(job, gpu, nowMs, runMs, measured);
      policy.onTaskStarted(job, gpu, nowMs);
    });
  }

  private void touch(YarnJob j) {
    if (!j.touched) {
      j.touched = true;
      touchedJobs.add(j);
    }
  }

  /** Copies the live state of what changed to what the policy reads; under the gate's lock. */
  private void publish() {
    for (YarnJob j : touchedJobs) {
      j.publish();
      j.touched = false;
    }
    touchedJobs.clear();
    boolean gpusChanged = gpusVersion != inventory.version();
    for (YarnGpu g : inventory.drainTouched()) {
      boolean wasBusy = g.busy();
      g.publish();
      if (!gpusChanged && !countsStale && wasBusy != g.busy()) {
        // same GPUs as counted: only this one's free count moves (a full count is O(GPUs))
        counts.get(g.type())[1] += wasBusy ? 1 : -1;
      }
    }
    countsStale |= gpusChanged;
  }

  /**
   * Brings the job and GPU lists of the {@link ClusterView} up to date, just before the policy
   * reads them (assign, and a re-plan started by the same pass); callbacks never read the view.
   * The jobs shown change in place, by the jobs that came or went since the last publish: a
   * copy would cost every job at each arrival or departure, which on a large cluster comes
   * several times a second. Nothing else changes them, so a policy sees them fixed for the
   * whole of a call, and a re-plan on the background thread for the whole of its run (the
   * gate lets no pass in, so nothing publishes, until it ends). Under the gate's lock.
   */
  private void publishViews() {
    if (jobsChanged.size() > REBUILD_AT && jobsChanged.size() > shownList.size() / 8) {
      // many at once (the jobs of a restart, a burst of submissions): a rebuild costs the
      // jobs once, where inserts out of arrival order would each shift the list
      shownList.clear();
      shownList.addAll(ordered.keySet());
      shownJobs.clear();
      shownJobs.putAll(active);
      jobsChanged.clear();
    } else if (!jobsChanged.isEmpty()) {
      for (YarnJob j : jobsChanged) {
        YarnJob shown = shownJobs.get(j.id());
        if (active.get(j.id()) == j) {
          if (shown != j) {
            unlist(shown);
            shownJobs.put(j.id(), j);
            int at = Collections.binarySearch(shownList, j, ARRIVAL);
            shownList.add(at < 0 ? -at - 1 : at, j);
          }
        } else if (shown == j) {
          shownJobs.remove(j.id());
          unlist(j);
        }
      }
      jobsChanged.clear();
    }
    if (gpusVersion != inventory.version()) {
      shownGpus = inventory.gpus();
      gpusVersion = inventory.version();
      countsStale = true;
    }
  }

  private void unlist(YarnJob job) {
    if (job != null) {
      int at = Collections.binarySearch(shownList, job, ARRIVAL);
      if (at >= 0) {
        shownList.remove(at);
      }
    }
  }

  private List<Assignment> check(List<Assignment> answer, long nowMs) {
    if (answer == null) {
      LOG.error("{}: assign returned null at {} ms; nothing placed", policy.name(), nowMs);
      return List.of();
    }
    // The offer is every free GPU, and nothing starts before the answer is checked: a GPU was
    // offered iff it is current and free now (no set of the whole offer to build per pass).
    Set<YarnGpu> givenGpus = new HashSet<>();
    Map<String, Integer> given = new HashMap<>();
    List<Assignment> ok = new ArrayList<>(answer.size());
    for (Assignment a : answer) {
      YarnJob job = active.get(a.jobId());
      YarnGpu gpu = inventory.gpu(a.gpuId());
      String bad = null;
      if (gpu == null || gpu.taken() || !givenGpus.add(gpu)) {
        bad = "GPU " + a.gpuId() + " was not offered or is given twice";
      } else if (job == null) {
        bad = "job " + a.jobId() + " is not active";
      } else if (given.merge(job.id(), 1, Integer::sum) > job.ready) {
        bad = "job " + a.jobId() + " has no ready task left";
      } else if (job.times(gpu.type()) == null) {
        bad = "job " + a.jobId() + " (model " + job.model() + ") cannot run on " + gpu.type();
      }
      if (bad != null) {
        LOG.error("{} broke the policy contract at {} ms: {}; decision skipped", policy.name(),
            nowMs, bad);
      } else {
        ok.add(a);
      }
    }
    return ok;
  }

  /**
   * The policy's completion forecast of now ({@link SchedulingPolicy#forecast}); empty when the
   * policy makes none or a re-plan is in flight (the policy is busy: no waiting for a solve).
   */
  Optional<Supplier<Forecast>> forecast(long nowMs) {
    if (!gate.enter()) {
      return Optional.empty();
    }
    try {
      publishViews();
      return policy.forecast(this, nowMs);
    } finally {
      gate.exit();
    }
  }

  YarnJob activeJob(String id) {
    return active.get(id);
  }

  // --- ClusterView ---

  @Override
  public List<? extends JobView> jobs() {
    return jobList;
  }

  @Override
  public JobView job(String id) {
    return shownJobs.get(id);
  }

  @Override
  public List<? extends GpuView> gpus() {
    return shownGpus;
  }

  @Override
  public long gpusVersion() {
    return gpusVersion; // that of shownGpus
  }

  @Override
  public List<GpuType> gpuTypes() {
    refreshCounts();
    return types;
  }

  @Override
  public int gpuCount(GpuType type) {
    refreshCounts();
    int[] c = counts.get(type);
    return c == null ? 0 : c[0];
  }

  @Override
  public int freeGpuCount(GpuType type) {
    refreshCounts();
    int[] c = counts.get(type);
    return c == null ? 0 : c[1];
  }

  @Override
  public TaskTimeModel taskTimes() {
    return times.byModel();
  }

  private void refreshCounts() {
    if (countsStale) {
      Map<GpuType, int[]> m = new TreeMap<>();
      for (YarnGpu g : shownGpus) {
        int[] c = m.computeIfAbsent(g.type(), t -> new int[2]);
        c[0]++;
        if (!g.busy()) {
          c[1]++;
        }
      }
      counts = m;
      types = List.copyOf(m.keySet());
      countsStale = false;
    }
  }
}
