package io.hare.sim;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.SchedulerKeys;
import io.hare.core.TaskTimes;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import io.hare.core.queues.QueueGuarantees;
import io.hare.core.queues.QueueShare;
import io.hare.core.queues.QueueShares;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.Set;

/**
 * Discrete-event simulation of one policy on one workload. Time is simulated (milliseconds); no
 * wall clock is read except to measure how long the policy spends re-planning.
 *
 * <p>Model (the paper's, DESIGN.md section 1): a job runs its rounds one after another; a round's
 * k tasks become ready together when the previous round's barrier clears (or at arrival); a task
 * holds its GPU for its compute time only (plus a switch time when the GPU last ran another job);
 * its sync time then runs off the GPU; the round ends when all k tasks have computed and synced.
 * Tasks are never preempted. Task times are the ground-truth profile, which the policy is told
 * too, unless a {@link TaskDurations} gives each task its own (a replay of measured times);
 * rounded to whole milliseconds (compute at least 1 ms).
 *
 * <p>At each instant with events, the simulator applies all of them, lets the policy re-plan if
 * it asks to, then offers every free GPU to {@link SchedulingPolicy#assign}. A policy that breaks
 * the rules of that interface gets an {@link IllegalStateException}. Jobs that can never run
 * (empty cluster, a policy that never places them) are reported as unfinished.
 *
 * <p>With several queues ({@link SimOptions#queues}) every offer goes through the same
 * {@link QueueGuarantees} as the ResourceManager's: guarantees first, then the policy's order
 * among the queues below their maximum. Since every GPU here goes back to the offer at its
 * task's end (there are no warm containers), a borrowed GPU returns at the first task boundary.
 * Each queue's {@link QueueOutcome} counts the time it waited for its guarantee.
 *
 * <p>Tasks a host starts by its own rule ({@link HostStarts}: a replay's warm continuations)
 * start at each instant right after its events, before the policy re-plans or is offered the
 * GPUs left, and outside the queues' guarantees, which count them as running.
 *
 * <p>Not thread-safe; one run at a time per instance.
 */
public final class Simulator {

  private static final int ARRIVAL = 0;
  private static final int COMPUTE_END = 1;
  private static final int SYNC_END = 2;
  private static final int WAKEUP = 3;

  private final ClusterSpec cluster;
  private final List<JobSpec> jobs;
  private final TaskTimeModel truth;
  private final TaskDurations durations;
  private final SimOptions options;

  /** Every task takes the times of {@code truth}, which the policy is told too. */
  public Simulator(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel truth,
      SimOptions options) {
    this(cluster, jobs, truth, (job, round, index, type) -> truth.times(job.model(), type),
        options);
  }

  /**
   * The policy is told {@code told} (and a job can run only where it has times), but each task
   * takes what {@code durations} says: a replay of measured times.
   */
  public Simulator(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel told,
      TaskDurations durations, SimOptions options) {
    Set<String> ids = new HashSet<>();
    QueueShares qs = options.queues();
    for (JobSpec j : jobs) {
      if (!ids.add(j.id())) {
        throw new IllegalArgumentException("duplicate job id " + j.id());
      }
      if (qs.several() && !qs.queues().containsKey(j.queue())) {
        throw new IllegalArgumentException("job " + j.id() + " names queue '" + j.queue()
            + "', which is not configured; the queues are "
            + String.join(", ", qs.queues().keySet()));
      }
    }
    this.cluster = cluster;
    List<JobSpec> sorted = new ArrayList<>(jobs);
    sorted.sort(Comparator.comparingLong(JobSpec::arrivalMs).thenComparing(JobSpec::id));
    this.jobs = List.copyOf(sorted);
    this.truth = told;
    this.durations = options.profileError().apply(durations);
    this.options = options;
  }

  /** Runs the policy from an empty cluster until no event is left. */
  public SimResult run(SchedulingPolicy policy) {
    return run(policy, HostStarts.NONE);
  }

  /**
   * As {@link #run(SchedulingPolicy)}, with tasks the host starts by its own rule at each instant
   * before the policy is asked ({@link HostStarts}).
   */
  public SimResult run(SchedulingPolicy policy, HostStarts host) {
    if (options.queues().several()) {
      policy.queuesUnsupported().ifPresent(why -> {
        throw new IllegalArgumentException(SchedulerKeys.QUEUES + ": " + why);
      });
    }
    return new Run(policy, host).execute();
  }

  /**
   * The cluster's GPU types on which no job of the workload can run (its model has no times
   * there), in the cluster's order: their GPUs can only idle, so they are left out of GPU
   * utilisation, and {@code hare simulate} names them in a warning.
   */
  public List<GpuType> unusableTypes() {
    List<GpuType> out = new ArrayList<>();
    for (GpuType t : cluster.types()) {
      if (jobs.stream().noneMatch(j -> truth.times(j.model(), t) != null)) {
        out.add(t);
      }
    }
    return out;
  }

  private record Event(long timeMs, long seq, int kind, SimJob job, SimGpu gpu, int round,
      int index, long startMs, long computeStartMs, long computeEndMs) {}

  /** State of one run; the simulator itself stays reusable. */
  private final class Run implements ClusterView {
    private final SchedulingPolicy policy;
    private final HostStarts host;
    private final PriorityQueue<Event> queue = new PriorityQueue<>(
        Comparator.comparingLong(Event::timeMs).thenComparingLong(Event::seq));
    private long seq;
    private final SimGpu[] gpus;
    private final Map<String, SimGpu> gpuById = new HashMap<>();
    private final List<GpuType> types;
    private final Map<GpuType, List<SimGpu>> freeByType = new LinkedHashMap<>();
    private final Map<GpuType, Integer> countByType = new HashMap<>();
    private final Map<String, SimJob> active = new HashMap<>();
    /** Active jobs in arrival order (then id), as the RM lists them, whenever they announced. */
    private final TreeMap<Integer, SimJob> activeInOrder = new TreeMap<>();
    private List<SimJob> activeList = List.of();
    private boolean activeChanged;
    private long readyTotal;
    private final List<SimJob> all = new ArrayList<>();
    private final List<TaskRecord> records = new ArrayList<>();
    private long busyMs;
    private long switches;
    private long replans;
    private long replanNanos;
    private long replanMaxNanos;
    private long wakeupAt = Long.MIN_VALUE;
    private final List<GpuView> offered;
    private final QueueGuarantees guarantees; // null with one queue: the policy sees every job
    private final List<QueueShare> queueList = new ArrayList<>();
    private final int[] queueReady;
    private final int[] queueRunning;
    private final int[] queueGuaranteed;
    private final long[] queueWaitMs;
    private final long[] queueShortGpuMs;
    private final long[] queueLentGpuMs;
    private final TypeAccounts typeAccounts; // null unless some queue is guaranteed GPU types
    private long accountedTo = Long.MIN_VALUE;

    Run(SchedulingPolicy policy, HostStarts host) {
      this.policy = policy;
      this.host = host;
      QueueShares qs = options.queues();
      guarantees = qs.several() ? new QueueGuarantees(qs) : null;
      queueList.addAll(qs.queues().values());
      Map<String, Integer> queueIndex = new HashMap<>();
      for (QueueShare q : queueList) {
        queueIndex.put(q.name(), queueIndex.size());
      }
      int nq = queueList.size();
      queueReady = new int[nq];
      queueRunning = new int[nq];
      queueGuaranteed = new int[nq];
      queueWaitMs = new long[nq];
      queueShortGpuMs = new long[nq];
      queueLentGpuMs = new long[nq];
      List<Gpu> gs = cluster.gpus();
      gpus = new SimGpu[gs.size()];
      types = cluster.types();
      for (GpuType t : types) {
        freeByType.put(t, new ArrayList<>());
        countByType.put(t, cluster.count(t));
      }
      for (int i = 0; i < nq; i++) {
        queueGuaranteed[i] = queueList.get(i).guaranteedGpus(countByType);
      }
      typeAccounts = qs.perType() ? new TypeAccounts(queueList, types, countByType) : null;
      for (int i = 0; i < gs.size(); i++) {
        gpus[i] = new SimGpu(gs.get(i), i);
        gpuById.put(gs.get(i).id(), gpus[i]);
        freeByType.get(gs.get(i).type()).add(gpus[i]);
      }
      boolean reveal = policy.clairvoyant();
      for (JobSpec j : jobs) {
        SimJob sj = new SimJob(j, all.size(), queueIndex.get(qs.queueOf(j.queue())), reveal,
            options.profileError().toldOf(truth));
        all.add(sj);
        push(j.arrivalMs() + durations.startupMs(j), ARRIVAL, sj, null, 0, 0, 0, 0, 0);
      }
      offered = new FreeList();
    }

    SimResult execute() {
      while (!queue.isEmpty()) {
        long now = queue.peek().timeMs();
        account(now);
        while (!queue.isEmpty() && queue.peek().timeMs() == now) {
          handle(queue.poll(), now);
        }
        if (host != HostStarts.NONE && readyTotal > 0 && !offered.isEmpty()) {
          // the host's own starts (a replay's warm containers) come before the policy hears more
          apply(host.startsAt(this, Collections.unmodifiableList(offered), now), now);
        }
        if (policy.replanDue(now)) {
          long t0 = System.nanoTime();
          policy.replan(this, now);
          long dt = System.nanoTime() - t0;
          replans++;
          replanNanos += dt;
          replanMaxNanos = Math.max(replanMaxNanos, dt);
        }
        if (readyTotal > 0 && !offered.isEmpty()) {
          apply(guarantees == null
              ? policy.assign(this, Collections.unmodifiableList(offered), now)
              : guarantees.assign(policy, this, activeJobs(), offered, now).assignments(), now);
        }
        OptionalLong wake = policy.wakeUpAtMs();
        if (wake.isPresent() && wake.getAsLong() > now && wake.getAsLong() != wakeupAt
            && !active.isEmpty()) {
          wakeupAt = wake.getAsLong();
          push(wakeupAt, WAKEUP, null, null, 0, 0, 0, 0, 0);
        }
      }
      List<JobOutcome> outcomes = new ArrayList<>(all.size());
      for (SimJob j : all) {
        JobSpec s = j.spec;
        outcomes.add(new JobOutcome(s.id(), s.weight(), s.model(), s.tasksPerRound(), s.rounds(),
            s.arrivalMs(), j.completionMs, queueList.get(j.queueIndex).name()));
      }
      int usable = gpus.length;
      for (GpuType t : unusableTypes()) {
        usable -= cluster.count(t);
      }
      return new SimResult(policy.name(), outcomes, records, busyMs, usable, switches,
          replans, replanNanos, replanMaxNanos, queueOutcomes(outcomes), Double.NaN);
    }

    /**
     * Adds the time since the last instant to each queue that waited for its guarantee over it:
     * the state between two instants is the one the last left.
     */
    private void account(long now) {
      if (accountedTo != Long.MIN_VALUE && now > accountedTo && typeAccounts != null) {
        typeAccounts.add(now - accountedTo, queueReady, queueRunning, queueWaitMs,
            queueShortGpuMs, queueLentGpuMs);
      } else if (accountedTo != Long.MIN_VALUE && now > accountedTo) {
        long dt = now - accountedTo;
        int lent = 0; // GPUs held above guarantees, summed over queues
        for (int q = 0; q < queueReady.length; q++) {
          lent += Math.max(0, queueRunning[q] - queueGuaranteed[q]);
        }
        for (int q = 0; q < queueReady.length; q++) {
          int lack = queueGuaranteed[q] - queueRunning[q];
          if (queueReady[q] > 0 && lack > 0) {
            int shortGpus = Math.min(lack, queueReady[q]);
            queueWaitMs[q] += dt;
            queueShortGpuMs[q] += dt * shortGpus;
            queueLentGpuMs[q] += dt * Math.min(shortGpus, lent); // a queue short holds none above
          }
        }
      }
      accountedTo = now;
    }

    private List<QueueOutcome> queueOutcomes(List<JobOutcome> outcomes) {
      List<QueueOutcome> out = new ArrayList<>();
      for (int q = 0; q < queueList.size(); q++) {
        String name = queueList.get(q).name();
        int n = 0;
        long unfinished = 0;
        double wjct = 0;
        for (JobOutcome o : outcomes) {
          if (o.queue().equals(name)) {
            n++;
            if (o.finished()) {
              wjct += o.weight() * o.jctS();
            } else {
              unfinished++;
            }
          }
        }
        Map<String, Double> typeShares = new TreeMap<>();
        queueList.get(q).typeShares().forEach((t, v) -> typeShares.put(t.name(), v));
        out.add(new QueueOutcome(name, queueList.get(q).guaranteedShare(), queueGuaranteed[q], n,
            unfinished, wjct, queueWaitMs[q] / 1000.0, queueShortGpuMs[q] / 1000.0,
            queueLentGpuMs[q] / 1000.0, Double.NaN, typeShares));
      }
      return out;
    }

    private void push(long time, int kind, SimJob job, SimGpu gpu, int round, int index,
        long start, long computeStart, long computeEnd) {
      queue.add(new Event(time, seq++, kind, job, gpu, round, index, start, computeStart,
          computeEnd));
    }

    private void handle(Event e, long now) {
      switch (e.kind()) {
        case ARRIVAL -> {
          SimJob j = e.job();
          j.openRound();
          readyTotal += j.ready;
          queueReady[j.queueIndex] += j.ready;
          if (typeAccounts != null) {
            typeAccounts.waiting(j, j.ready);
          }
          active.put(j.id(), j);
          activeInOrder.put(j.order, j);
          activeChanged = true;
          policy.onJobArrived(j, now);
        }
        case COMPUTE_END -> {
          SimJob j = e.job();
          SimGpu g = e.gpu();
          g.busy = false;
          long compute = e.computeEndMs() - e.computeStartMs();
          g.busyMs += compute;
          busyMs += compute;
          addFree(g);
          j.running--;
          queueRunning[j.queueIndex]--;
          if (typeAccounts != null) {
            typeAccounts.running(j, g.type(), -1);
          }
          long sync = Math.round(durations.of(j.spec, e.round(), e.index(), g.type()).syncMs());
          push(now + sync, SYNC_END, j, g, e.round(), e.index(), e.startMs(), e.computeStartMs(),
              e.computeEndMs());
          j.observe(g.type(), compute);
          policy.onTaskComputed(j, g, now, compute);
        }
        case SYNC_END -> {
          SimJob j = e.job();
          if (options.recordTasks()) {
            records.add(new TaskRecord(j.id(), e.round(), e.index(), e.gpu().id(),
                e.gpu().type().name(), e.startMs(), e.computeStartMs(), e.computeEndMs(), now));
          }
          j.tasksDone++;
          if (++j.syncedInRound == j.tasksPerRound()) {
            j.roundsDone++;
            if (j.roundsDone == j.spec.rounds()) {
              j.completionMs = now;
              active.remove(j.id());
              activeInOrder.remove(j.order);
              activeChanged = true;
              policy.onJobDone(j, now);
            } else {
              j.openRound();
              readyTotal += j.ready;
              queueReady[j.queueIndex] += j.ready;
              if (typeAccounts != null) {
                typeAccounts.waiting(j, j.ready);
              }
              policy.onRoundDone(j, now);
            }
          }
        }
        case WAKEUP -> {
          // nothing changes; the policy is offered the free GPUs again
        }
        default -> throw new IllegalStateException("unknown event " + e.kind());
      }
    }

    private void apply(List<Assignment> decisions, long now) {
      if (decisions == null) {
        throw new IllegalStateException(policy.name() + ": assign returned null");
      }
      for (Assignment a : decisions) {
        SimGpu g = gpuById.get(a.gpuId());
        if (g == null) {
          throw new IllegalStateException(policy.name() + ": unknown GPU " + a.gpuId());
        }
        if (g.busy) {
          throw new IllegalStateException(policy.name() + ": GPU " + a.gpuId()
              + " is busy or assigned twice at " + now + " ms");
        }
        SimJob j = active.get(a.jobId());
        if (j == null) {
          throw new IllegalStateException(policy.name() + ": job " + a.jobId()
              + " is not active at " + now + " ms");
        }
        if (j.ready <= 0) {
          throw new IllegalStateException(policy.name() + ": job " + a.jobId()
              + " has no ready task at " + now + " ms");
        }
        TaskTimes t = truth.times(j.model(), g.type());
        if (t == null) {
          throw new IllegalStateException(policy.name() + ": job " + a.jobId() + " (model "
              + j.model() + ") cannot run on " + g.type());
        }
        int index = j.nextIndex++;
        j.ready--;
        readyTotal--;
        j.running++;
        queueReady[j.queueIndex]--;
        queueRunning[j.queueIndex]++;
        if (typeAccounts != null) {
          typeAccounts.waiting(j, -1);
          typeAccounts.running(j, g.type(), 1);
        }
        long sw = g.lastJobId != null && !g.lastJobId.equals(j.id()) ? options.switchMs() : 0;
        if (sw > 0) {
          switches++;
        }
        g.busy = true;
        g.lastJobId = j.id();
        removeFree(g);
        long computeStart = now + sw;
        long computeEnd = computeStart + Math.max(1,
            Math.round(durations.of(j.spec, j.roundsDone, index, g.type()).computeMs()));
        push(computeEnd, COMPUTE_END, j, g, j.roundsDone, index, now, computeStart, computeEnd);
        policy.onTaskStarted(j, g, now);
      }
    }

    private void addFree(SimGpu g) {
      List<SimGpu> l = freeByType.get(g.type());
      int pos = Collections.binarySearch(l, g, Comparator.comparingInt(x -> x.index));
      l.add(-pos - 1, g);
    }

    private void removeFree(SimGpu g) {
      List<SimGpu> l = freeByType.get(g.type());
      int pos = Collections.binarySearch(l, g, Comparator.comparingInt(x -> x.index));
      l.remove(pos);
    }

    // --- ClusterView ---

    @Override
    public List<? extends JobView> jobs() {
      return activeJobs();
    }

    private List<SimJob> activeJobs() {
      if (activeChanged) {
        activeList = List.copyOf(activeInOrder.values());
        activeChanged = false;
      }
      return activeList;
    }

    @Override
    public JobView job(String id) {
      return active.get(id);
    }

    @Override
    public List<? extends GpuView> gpus() {
      return List.of(gpus);
    }

    @Override
    public List<GpuType> gpuTypes() {
      return types;
    }

    @Override
    public int gpuCount(GpuType type) {
      return countByType.getOrDefault(type, 0);
    }

    @Override
    public int freeGpuCount(GpuType type) {
      List<SimGpu> l = freeByType.get(type);
      return l == null ? 0 : l.size();
    }

    @Override
    public TaskTimeModel taskTimes() {
      return truth;
    }

    /** All free GPUs, type by type in cluster order, without copying. */
    private final class FreeList extends AbstractList<GpuView> {
      @Override
      public GpuView get(int i) {
        for (List<SimGpu> l : freeByType.values()) {
          if (i < l.size()) {
            return l.get(i);
          }
          i -= l.size();
        }
        throw new IndexOutOfBoundsException(i);
      }

      @Override
      public int size() {
        int n = 0;
        for (List<SimGpu> l : freeByType.values()) {
          n += l.size();
        }
        return n;
      }
    }
  }
}
