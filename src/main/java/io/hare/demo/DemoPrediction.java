package io.hare.demo;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import io.hare.core.queues.QueueShares;
import io.hare.embedded.EmbeddedCluster;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskDurations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the simulator predicts for a demo: the same submissions (jobs, rounds, k, weights,
 * models, submit offsets) on the demo's cluster (its {@code --nodes}, GPUs offered in the order
 * the ResourceManager offers them) under the same policy, built by the same factory, run by the
 * unchanged {@link Simulator}. No YARN is started; it takes milliseconds.
 *
 * <p>Each task takes the time of the profile the demo gives its scheduler
 * ({@link DemoProfiles#table}): the emulated GPU's pace ({@code --task-ms} x the model's slowdown
 * on the type) plus the task process's start-up at its share of the cores. Each round's barrier
 * takes the profile's sync time, the demo's own model of it: the sync step's process measured at
 * start-up ({@link DemoProfiles#calibrate}) plus two heartbeats; the simulator runs it off the
 * GPU after a task's compute, so a round ends one sync after its last task, as in the demo.
 * A job's start-up (its ApplicationMaster's start and first container's launch) is what the
 * demo measured on its warm-up job, the same for every job; later container launches are left
 * out, because the profile leaves them out. So the prediction is what the policy would do with
 * the demo's GPUs if YARN cost nothing beyond starting each job. With queues (the tenants demo)
 * the simulator keeps their guarantees and maxima around the policy, as the scheduler does.
 */
public final class DemoPrediction {

  private DemoPrediction() {}

  /**
   * Simulates {@code jobs} on {@code nodes} under {@code policy} (a fresh one: it keeps state).
   *
   * @param times task and sync times per (model, GPU type), the demo's profile
   */
  public static SimResult simulate(List<DemoJob> jobs, List<EmbeddedCluster.Node> nodes,
      TaskTimeModel times, SchedulingPolicy policy) {
    return simulate(jobs, nodes, times, policy, 0);
  }

  /**
   * As above, each job's first tasks ready {@code startupMs} after its submission: the
   * ApplicationMaster's start and first asks, as the demo measured them on its warm-up job
   * ({@link #startupOf}).
   */
  public static SimResult simulate(List<DemoJob> jobs, List<EmbeddedCluster.Node> nodes,
      TaskTimeModel times, SchedulingPolicy policy, long startupMs) {
    return simulate(jobs, nodes, times, policy, startupMs, QueueShares.single());
  }

  /**
   * As above, with the scheduler's {@code queues}: each job in its own queue, the simulator
   * keeping the queues' guarantees and maxima as the ResourceManager does.
   */
  public static SimResult simulate(List<DemoJob> jobs, List<EmbeddedCluster.Node> nodes,
      TaskTimeModel times, SchedulingPolicy policy, long startupMs, QueueShares queues) {
    List<JobSpec> specs = jobs.stream().map(j -> new JobSpec(j.name(), j.submitAtMs(),
        j.weight(), j.model().name(), j.tasksPerRound(), j.rounds(),
        queues.several() ? j.queue() : JobSpec.DEFAULT_QUEUE)).toList();
    TaskDurations durations = new TaskDurations() {
      @Override
      public TaskTimes of(JobSpec job, int round, int index, GpuType type) {
        return times.times(job.model(), type);
      }

      @Override
      public long startupMs(JobSpec job) {
        return startupMs;
      }
    };
    return new Simulator(cluster(nodes), specs, times, durations,
        SimOptions.defaults().withQueues(queues)).run(policy);
  }

  /**
   * The longest start-up of a job in {@code run}: from its submission to its first task's start
   * (the ApplicationMaster's start, its first asks and the first container's launch, which the
   * task's own record cannot tell apart); 0 for a run without a task.
   */
  public static long startupOf(DemoResult run) {
    return run.jobs().stream().mapToLong(j -> run.tasks().stream()
        .filter(t -> t.appId().equals(j.appId())).mapToLong(DemoResult.Task::startMs).min()
        .orElse(j.submitMs()) - j.submitMs()).max().orElse(0);
  }

  /** The demo cluster's GPUs as the simulator sees them, named as the demo names its hosts. */
  static ClusterSpec cluster(List<EmbeddedCluster.Node> nodes) {
    Map<String, Integer> gpus = new LinkedHashMap<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      gpus.put(EmbeddedCluster.host(i), nodes.get(i).gpus());
      types.put(EmbeddedCluster.host(i), nodes.get(i).gpuType());
    }
    return Replay.cluster(gpus, types);
  }
}
