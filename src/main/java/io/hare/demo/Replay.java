package io.hare.demo;

import io.hare.core.ClusterSpec;
import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.profile.OnlineEstimator;
import io.hare.core.profile.TaskTimeModel;
import io.hare.core.queues.QueueShares;
import io.hare.embedded.SchedulerJournal;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.TaskDurations;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.yarn.scheduler.HareSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays a demo run in the simulator with the same policy and the measured task times, and
 * compares the order of tasks on each node: the check that the ResourceManager and the simulator
 * run the same policy core to the same decisions.
 *
 * <p>What the simulator is given, all from the scheduler's own journal ({@link SchedulerJournal})
 * at the scheduler's times, each event at the first pass that let the policy act on it (a
 * heartbeat, not the instant the event happened): each job is submitted when YARN says, and the
 * policy hears of it when it first saw its GPU asks (the ApplicationMaster's start-up); each task
 * holds its GPU for exactly the time it held it in YARN (allocation to the scheduler learning of
 * its end; a task the simulator puts on another GPU type takes that time scaled by the model's
 * slowdowns); each round's barrier takes the time YARN took from the round's last task end to
 * the next round's asks (sync step and AM heartbeats). The policy is told the same estimates as
 * in the RM: the profile as prior, refined per job by every measured task, as
 * {@code TaskTimeSource} does; it re-plans when the RM re-planned and decides only at the RM's
 * passes ({@link ReplayedPolicy}). So where YARN and the simulator agree, the policy core made
 * the same decisions from the same information; where they differ, something outside the core
 * did (a lost ask, a surplus container, a clock).
 *
 * <p>A run with a failed or lost task attempt is not replayed (its retry would be a task the
 * simulator does not know).
 */
public final class Replay {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Replay.class);

  /**
   * The order of tasks on one node, (job, round) by start, in YARN and simulated, with the
   * start times in ms from the first job's arrival.
   */
  public record NodeOrder(String host, List<String> real, List<String> simulated,
      List<Long> realStartMs, List<Long> simulatedStartMs) {
    public boolean same() {
      return real.equals(simulated);
    }

    /** YARN's order with start times: {@code job/rround@ms ...}. */
    public String timedReal() {
      return timed(real, realStartMs);
    }

    /** The simulator's order with start times. */
    public String timedSimulated() {
      return timed(simulated, simulatedStartMs);
    }
  }

  /** Per node, in node order; empty when the run cannot be replayed. */
  public record Outcome(List<NodeOrder> nodes, String why) {
    public long sameNodes() {
      return nodes.stream().filter(NodeOrder::same).count();
    }

    public boolean allSame() {
      return !nodes.isEmpty() && sameNodes() == nodes.size();
    }
  }

  /**
   * One task as YARN ran it: its GPU time at the scheduler's clock, from its allocation to the
   * end the RM heard of (what the RM measured), and when its process really ended
   * ({@code taskEndMs}, no later than that): a warm container's end can reach the scheduler after
   * its task's, when the container is parked or given back.
   */
  private record Held(String appId, int round, String host, String gpuType, long startMs,
      long endMs, long taskEndMs) {}

  private Replay() {}

  /**
   * @param settings the scheduler settings of the run (policy, its keys, profiles, estimator)
   */
  public static Outcome of(DemoResult run, HareSettings settings) {
    return of(run, settings, QueueShares.single());
  }

  /**
   * As above, with the scheduler's {@code queues}: the simulator keeps their guarantees and
   * maxima around the policy, as the scheduler did.
   */
  public static Outcome of(DemoResult run, HareSettings settings, QueueShares queues) {
    if (run.tasks().stream().anyMatch(t -> !"SUCCEEDED".equals(t.state()))) {
      return new Outcome(List.of(), "a task attempt failed or was lost; retries are not replayed");
    }
    // a warm container runs several tasks: its k-th start and end in the journal are its k-th
    // task process by start time
    Map<String, List<DemoResult.Task>> byContainer = new HashMap<>();
    run.tasks().forEach(t -> byContainer.computeIfAbsent(t.containerId(), c -> new ArrayList<>())
        .add(t));
    byContainer.values().forEach(l -> l.sort(Comparator.comparingLong(DemoResult.Task::startMs)));
    Map<String, Integer> seen = new HashMap<>();
    Passes passes = new Passes(run.journal());
    List<Held> held = new ArrayList<>();
    Map<String, SchedulerJournal.Entry> started = new HashMap<>();
    for (SchedulerJournal.Entry e : run.journal()) {
      if (e.kind() == SchedulerJournal.Kind.STARTED) {
        started.put(e.containerId(), e);
      } else if (e.kind() == SchedulerJournal.Kind.ENDED && started.containsKey(e.containerId())) {
        SchedulerJournal.Entry s = started.remove(e.containerId());
        List<DemoResult.Task> ran = byContainer.getOrDefault(e.containerId(), List.of());
        int k = seen.merge(e.containerId(), 1, Integer::sum) - 1;
        if (k >= ran.size()) {
          continue; // a surplus container its AM released unused: no task of the workload
        }
        // the policy hears of the end when the RM does (PolicyHost.taskEnded); it is offered
        // the GPU only at the RM's next pass (ReplayedPolicy)
        // a process end outside its hold (none recorded, another clock) tells nothing
        long taskEnd = ran.get(k).endMs();
        held.add(new Held(s.appId(), ran.get(k).round(), s.host(), s.gpuType(), s.ms(),
            e.ms(), taskEnd >= s.ms() ? Math.min(taskEnd, e.ms()) : e.ms()));
      }
    }
    // a stock application beside the Hare jobs (the tenants demo) takes no GPU the policy gives
    List<DemoResult.Job> hare = run.jobs().stream().filter(DemoResult.Job::hare).toList();
    Map<String, DemoResult.Job> jobs = new LinkedHashMap<>();
    hare.forEach(j -> jobs.put(j.appId(), j));
    Map<String, JobTimes> times = new HashMap<>();
    for (DemoResult.Job j : hare) {
      Optional<JobTimes> jt = JobTimes.of(j, held, run.journal(), passes);
      if (jt.isEmpty()) {
        return new Outcome(List.of(), j.name() + " has no complete record in the journal");
      }
      times.put(j.appId(), jt.get());
    }
    long origin = run.originMs();
    List<JobSpec> specs = new ArrayList<>();
    for (DemoResult.Job j : hare) {
      specs.add(new JobSpec(j.appId(), j.submitMs() - origin, j.weight(), j.appId(),
          j.tasksPerRound(), j.rounds(), queues.several() && j.queue() != null
              ? ContendedShares.name(j.queue()) : JobSpec.DEFAULT_QUEUE));
    }
    // as TaskTimeSource: the profile of the job's model, else the same time on every type
    TaskTimes fallback = new TaskTimes(settings.defaultComputeMs(), 0);
    TaskTimeModel prior = (model, type) -> settings.profiles().hasModel(model)
        ? settings.profiles().times(model, type) : fallback;
    Map<String, OnlineEstimator> estimates = new HashMap<>();
    for (DemoResult.Job j : hare) {
      estimates.put(j.appId(), new OnlineEstimator(prior, settings.priorWeight(),
          settings.window()));
    }
    TaskTimeModel told = (appId, type) -> estimates.get(appId).times(jobs.get(appId).model(),
        type);
    // the estimate learns each simulated task's time: the RM's measure where the simulator ran
    // the real task on its own type
    ReplayedPolicy policy = new ReplayedPolicy(settings.newPolicy(), (appId, type, ms) ->
        estimates.get(appId).observe(jobs.get(appId).model(), type, ms),
        Passes.relative(passes.replans, origin), Passes.relative(passes.installs, origin),
        Passes.relative(passes.consults, origin),
        Passes.continuations(run.journal(), origin));
    TaskDurations measured = new TaskDurations() {
      @Override
      public TaskTimes of(JobSpec job, int round, int index, GpuType type) {
        return times.get(job.id()).taskTimes(round, index, type,
            DemoModel.byName(jobs.get(job.id()).model()));
      }

      @Override
      public long startupMs(JobSpec job) {
        return Math.max(0, times.get(job.id()).readyMs[0] - jobs.get(job.id()).submitMs());
      }
    };
    SimResult sim = new Simulator(cluster(run), specs, told, measured, new SimOptions(0, true).withQueues(queues))
        .run(policy, policy::continuations);
    List<NodeOrder> nodes = compare(run, held, sim, origin);
    if (LOG.isDebugEnabled()) {
      for (NodeOrder n : nodes) {
        LOG.debug("{}: YARN {}", n.host(), n.timedReal());
        LOG.debug("{}: sim  {}", n.host(), n.timedSimulated());
      }
      specs.forEach(s -> LOG.debug("job {} arrives at {} ms, gaps {}", s.id(), s.arrivalMs(),
          java.util.Arrays.toString(times.get(s.id()).gapMs)));
    }
    return new Outcome(nodes, "");
  }

  private static String timed(List<String> order, List<Long> startMs) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < order.size(); k++) {
      b.append(order.get(k)).append('@').append(startMs.get(k)).append(' ');
    }
    return b.toString();
  }

  /**
   * The run's GPUs in the order the RM offers them to the policy (GpuInventory): types sorted by
   * name, and within a type nodes in registration order (the demo's node order), then by index.
   */
  private static ClusterSpec cluster(DemoResult run) {
    return cluster(run.gpusByHost(), run.typeByHost());
  }

  /** As {@link #cluster(DemoResult)}, for nodes given by their GPUs and type, in node order. */
  static ClusterSpec cluster(Map<String, Integer> gpusByHost, Map<String, String> typeByHost) {
    List<Gpu> gpus = new ArrayList<>();
    gpusByHost.forEach((host, n) -> {
      for (int i = 0; i < n; i++) {
        gpus.add(new Gpu(host + "#" + i, GpuType.of(typeByHost.get(host)), host));
      }
    });
    gpus.sort(Comparator.comparing(Gpu::type)); // stable: node order kept within a type
    return new ClusterSpec(gpus);
  }

  private static List<NodeOrder> compare(DemoResult run, java.util.Collection<Held> held,
      SimResult sim, long origin) {
    List<NodeOrder> out = new ArrayList<>();
    for (String host : run.gpusByHost().keySet()) {
      // tasks that start in the same pass on two GPUs of a node have no order between them:
      // by label, on both sides
      List<Held> real = held.stream().filter(h -> h.host().equals(host))
          .sorted(Comparator.comparingLong(Held::startMs)
              .thenComparing(h -> label(run, h.appId(), h.round()))).toList();
      List<TaskRecord> simulated = sim.tasks().stream()
          .filter(t -> t.gpuId().startsWith(host + "#"))
          .sorted(Comparator.comparingLong(TaskRecord::startMs)
              .thenComparing(t -> label(run, t.jobId(), t.round()))).toList();
      out.add(new NodeOrder(host, real.stream().map(h -> label(run, h.appId(), h.round()))
          .toList(), simulated.stream().map(t -> label(run, t.jobId(), t.round())).toList(),
          real.stream().map(h -> h.startMs() - origin).toList(),
          simulated.stream().map(TaskRecord::startMs).toList()));
    }
    return out;
  }

  private static String label(DemoResult run, String appId, int round) {
    String name = run.jobs().stream().filter(j -> j.appId().equals(appId))
        .map(DemoResult.Job::name).findFirst().orElse(appId);
    return name + "/r" + round;
  }

  /**
   * The scheduler's passes that brought the policy up to date: those that consulted it and those
   * that started a re-plan. YARN's policy sees an event (a task's end, new asks) at the first of
   * these at or after it, so that is when the simulated policy sees it too.
   */
  private static final class Passes {
    private final long[] publishes;
    final long[] consults;
    final long[] replans;
    final long[] installs;

    Passes(List<SchedulerJournal.Entry> journal) {
      consults = times(journal, SchedulerJournal.Kind.CONSULTED);
      replans = times(journal, SchedulerJournal.Kind.REPLANNED);
      installs = times(journal, SchedulerJournal.Kind.INSTALLED);
      publishes = java.util.stream.LongStream.concat(java.util.Arrays.stream(consults),
          java.util.Arrays.stream(replans)).sorted().distinct().toArray();
    }

    private static long[] times(List<SchedulerJournal.Entry> journal, SchedulerJournal.Kind k) {
      return journal.stream().filter(e -> e.kind() == k).mapToLong(SchedulerJournal.Entry::ms)
          .sorted().toArray();
    }

    /**
     * Each warm continuation: the job that went on, where, when. The RM journals one as its
     * container's end and start at the same instant, before that instant's pass; a container
     * that ends, is parked and is promoted again by the pass (standbys on) has its start after
     * the pass: that one the policy decided, so it is not taken as given.
     */
    static List<ReplayedPolicy.Continuation> continuations(List<SchedulerJournal.Entry> journal,
        long origin) {
      Map<String, Long> ended = new HashMap<>();
      List<ReplayedPolicy.Continuation> out = new ArrayList<>();
      for (SchedulerJournal.Entry e : journal) {
        if (e.kind() == SchedulerJournal.Kind.CONSULTED) {
          ended.clear();
        } else if (e.kind() == SchedulerJournal.Kind.ENDED) {
          ended.put(e.containerId(), e.ms());
        } else if (e.kind() == SchedulerJournal.Kind.STARTED
            && Long.valueOf(e.ms()).equals(ended.get(e.containerId()))) {
          out.add(new ReplayedPolicy.Continuation(e.ms() - origin, e.appId(), e.host(),
              e.gpuType()));
        }
      }
      return out;
    }

    /** {@code times} minus {@code origin}. */
    static long[] relative(long[] times, long origin) {
      return java.util.Arrays.stream(times).map(t -> t - origin).toArray();
    }

    /** The first pass at or after {@code ms}, or {@code ms} if none. */
    long next(long ms) {
      int i = java.util.Arrays.binarySearch(publishes, ms);
      if (i < 0) {
        i = -i - 1;
      }
      return i < publishes.length ? publishes[i] : ms;
    }
  }

  /** What YARN took per task and per round barrier for one job. */
  private static final class JobTimes {
    final long[] readyMs;
    final long[] gapMs;
    final List<List<Held>> rounds;

    private JobTimes(long[] readyMs, long[] gapMs, List<List<Held>> rounds) {
      this.readyMs = readyMs;
      this.gapMs = gapMs;
      this.rounds = rounds;
    }

    static Optional<JobTimes> of(DemoResult.Job job, java.util.Collection<Held> held,
        List<SchedulerJournal.Entry> journal, Passes passes) {
      List<List<Held>> rounds = new ArrayList<>();
      for (int r = 0; r < job.rounds(); r++) {
        int round = r;
        List<Held> tasks = held.stream().filter(h -> h.appId().equals(job.appId())
            && h.round() == round).sorted(Comparator.comparingLong(Held::startMs)).toList();
        if (tasks.size() != job.tasksPerRound()) {
          return Optional.empty();
        }
        rounds.add(tasks);
      }
      long[] ready = new long[job.rounds()];
      long[] gap = new long[job.rounds()];
      long after = Long.MIN_VALUE;
      long since = Long.MIN_VALUE;
      for (int r = 0; r < job.rounds(); r++) {
        long from = since;
        Optional<Long> asked = journal.stream().filter(e -> e.kind() == SchedulerJournal.Kind.ASKS
            && e.appId().equals(job.appId()) && e.outstanding() > 0 && e.ms() >= from)
            .map(SchedulerJournal.Entry::ms).findFirst();
        if (asked.isEmpty()) {
          return Optional.empty();
        }
        ready[r] = passes.next(asked.get());
        if (r > 0) {
          // a short sync step can ask for the next round before the scheduler hears that a
          // warm container's last task ended: the round is then ready as that task ends
          gap[r - 1] = Math.max(0, ready[r] - after);
        }
        after = rounds.get(r).stream().mapToLong(Held::endMs).max().orElseThrow();
        // the next round's asks come after this round's tasks ended, which the scheduler
        // may hear of later (a parked container)
        since = rounds.get(r).stream().mapToLong(Held::taskEndMs).max().orElseThrow();
      }
      return Optional.of(new JobTimes(ready, gap, rounds));
    }

    /** The simulated task (round, index): its real counterpart's times, picked once. */
    private final Map<String, TaskTimes> picked = new HashMap<>();
    private final java.util.Set<Held> used = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>()); // two tasks may hold equal records

    /**
     * Times of the simulated task {@code index} of {@code round} on {@code type}: the time a real
     * task of that round held a GPU of that type (the earliest not yet given to another simulated
     * task; indexes differ between YARN and the simulator, types do not when they agree), else a
     * real task of another type scaled by the model's slowdowns.
     */
    TaskTimes taskTimes(int round, int index, GpuType type, DemoModel model) {
      return picked.computeIfAbsent(round + "/" + index, k -> {
        List<Held> tasks = rounds.get(round);
        Held h = tasks.stream().filter(t -> !used.contains(t) && t.gpuType().equals(type.name()))
            .findFirst().orElse(tasks.stream().filter(t -> !used.contains(t)).findFirst()
                .orElse(tasks.get(tasks.size() - 1)));
        used.add(h);
        double ms = h.endMs() - h.startMs();
        if (!h.gpuType().equals(type.name())) {
          ms = ms * model.slowdown(type.name()) / model.slowdown(h.gpuType());
        }
        return new TaskTimes(Math.max(1, ms), gapMs[round]);
      });
    }
  }
}
