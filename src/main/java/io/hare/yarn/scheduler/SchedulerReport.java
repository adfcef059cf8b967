package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.plan.Forecast;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * What an admin sees of the Hare scheduler (the RM's scheduler page and Hare's REST answer,
 * {@code io.hare.yarn.scheduler.web}): the GPUs per type, the GPU tasks running and waiting, and
 * every admitted job, taken at one moment under the scheduler's lock ({@link HareScheduler#report}).
 * The completion forecast is the policy's ({@link Forecast}, an estimate); its heavy part runs
 * when {@link #forecast} is called, outside the scheduler's lock.
 *
 * @param policy the policy's name
 * @param atMs when it was taken, on the scheduler's clock (epoch ms in a real RM)
 * @param gpus GPU counts per type, types sorted
 * @param runningTasks GPU task containers running
 * @param waitingTasks GPU tasks asked for and not started (outstanding one-GPU asks)
 * @param standbys standby containers waiting for a GPU
 * @param jobs admitted jobs, by arrival
 * @param queues each queue's shares and GPU tasks, in configuration order
 * @param queueWarning what the queues' guarantees promise beyond the cluster's GPUs, in words
 *     ({@link io.hare.core.queues.GuaranteeFit}); empty when they fit
 * @param hiddenJobs admitted jobs left out by {@link #visibleTo}
 * @param forecaster the policy's forecast of this moment; empty when the policy makes none or a
 *     re-plan was running
 * @param access who may see which job ({@link #visibleTo})
 */
public record SchedulerReport(String policy, long atMs, List<GpuCount> gpus, int runningTasks,
    long waitingTasks, int standbys, List<Job> jobs, List<QueueLine> queues,
    Optional<String> queueWarning, int hiddenJobs, Optional<Supplier<Forecast>> forecaster,
    Access access) {

  /** Whether {@code caller} may see the jobs of {@code owner} in {@code queue}. */
  public interface Access {
    boolean mayView(UserGroupInformation caller, String owner, String queue);
  }

  /** GPUs of one type: {@code used} run a task, the others are free. */
  public record GpuCount(String type, int total, int used) {
    public int free() {
      return total - used;
    }
  }

  /**
   * One admitted job as the scheduler counts it.
   *
   * @param rounds R as the job declared it; empty when undeclared
   * @param roundsDone rounds all of whose k tasks finished
   * @param runningTasks its GPU task containers running
   * @param waitingTasks its GPU tasks asked for and not started
   */
  public record Job(String id, String user, String queue, double weight, String model, int tasksPerRound,
      OptionalInt rounds, int roundsDone, int runningTasks, int waitingTasks, long arrivalMs) {}

  /**
   * One queue: its shares of the fleet's GPUs (and in GPUs now), and its jobs' GPU tasks.
   *
   * @param guaranteedShare of the fleet; 0 for a queue guaranteed GPU types
   * @param guaranteedGpus every GPU it is guaranteed now (per type, summed)
   * @param runningTasks GPU tasks of its jobs running now
   * @param waitingTasks GPU tasks of its jobs asked for and not started
   * @param guaranteedTypeShares per GPU type name, the share of its GPUs guaranteed instead of a
   *     fleet share; empty for a fleet guarantee
   */
  public record QueueLine(String name, double guaranteedShare, double maximumShare,
      int guaranteedGpus, int maximumGpus, int runningTasks, int waitingTasks,
      Map<String, Double> guaranteedTypeShares) {

    public QueueLine {
      guaranteedTypeShares = Collections.unmodifiableMap(new TreeMap<>(guaranteedTypeShares));
    }

    /** A queue guaranteed a share of the fleet. */
    public QueueLine(String name, double guaranteedShare, double maximumShare,
        int guaranteedGpus, int maximumGpus, int runningTasks, int waitingTasks) {
      this(name, guaranteedShare, maximumShare, guaranteedGpus, maximumGpus, runningTasks,
          waitingTasks, Map.of());
    }
  }

  public SchedulerReport {
    gpus = List.copyOf(gpus);
    jobs = List.copyOf(jobs);
    queues = List.copyOf(queues);
  }

  /**
   * The report as {@code remoteUser} may see it: with YARN's ACLs on, the jobs of others only
   * for the queue's administrators, as YARN's REST answers show applications to those who may
   * view them; no user at all (a filter chain without one) sees all, as it does there.
   */
  public SchedulerReport visibleTo(String remoteUser) {
    if (remoteUser == null) {
      return this;
    }
    UserGroupInformation caller = UserGroupInformation.createRemoteUser(remoteUser);
    List<Job> shown = jobs.stream().filter(j -> access.mayView(caller, j.user(), j.queue())).toList();
    return new SchedulerReport(policy, atMs, gpus, runningTasks, waitingTasks, standbys, shown,
        queues, queueWarning,
        hiddenJobs + jobs.size() - shown.size(), forecaster, access);
  }

  /** The forecast: list-schedules what is left now (milliseconds per hundred jobs); may be empty. */
  public Optional<Forecast> forecast() {
    return forecaster.map(Supplier::get);
  }

  static SchedulerReport take(String policy, long nowMs, Map<GpuType, int[]> counts,
      int running, long waiting, int standbys, Iterable<YarnJob> admitted,
      Function<ApplicationId, String> owners, Function<ApplicationId, String> queues,
      Collection<QueueSettings> configured, Optional<String> queueWarning,
      Optional<Supplier<Forecast>> forecaster, Access access) {
    List<GpuCount> gpus = new ArrayList<>();
    int[] fleet = new int[1];
    Map<GpuType, Integer> totals = new TreeMap<>();
    counts.forEach((t, c) -> {
      gpus.add(new GpuCount(t.name(), c[0], c[0] - c[1]));
      fleet[0] += c[0];
      totals.put(t, c[0]);
    });
    Map<String, int[]> tasks = new HashMap<>();
    for (YarnJob j : admitted) {
      int[] n = tasks.computeIfAbsent(String.valueOf(queues.apply(j.appId())), q -> new int[2]);
      n[0] += j.running;
      n[1] += j.ready;
    }
    List<QueueLine> lines = new ArrayList<>();
    for (QueueSettings q : configured) {
      int[] n = tasks.getOrDefault(q.name(), new int[2]);
      Map<String, Double> typeShares = new TreeMap<>();
      q.typeShares().forEach((t, v) -> typeShares.put(t.name(), v));
      lines.add(new QueueLine(q.name(), q.guaranteedShare(), q.maximumShare(),
          q.guaranteedGpus(totals), q.maximumGpus(fleet[0]), n[0], n[1], typeShares));
    }
    List<Job> jobs = new ArrayList<>();
    for (YarnJob j : admitted) {
      jobs.add(new Job(j.id(), owners.apply(j.appId()), queues.apply(j.appId()), j.weight(), j.model(), j.liveTasksPerRound(), j.declaredRounds(),
          j.liveRoundsDone(), j.running, j.ready, j.arrivalMs()));
    }
    jobs.sort(Comparator.comparingLong(Job::arrivalMs).thenComparing(Job::id));
    return new SchedulerReport(policy, nowMs, gpus, running, waiting, standbys, jobs, lines,
        queueWarning, 0, forecaster, access);
  }
}
