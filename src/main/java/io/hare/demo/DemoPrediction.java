package io.hare.demo;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.profile.TaskTimeModel;
import io.hare.embedded.EmbeddedCluster;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
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
 * Left out, because the profile leaves them out: the ApplicationMasters' start-up (the policy
 * hears of a job at its submission) and the container launch before a task's process starts.
 * So the prediction is what the policy would do with the demo's GPUs if YARN cost nothing.
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
    List<JobSpec> specs = jobs.stream().map(j -> new JobSpec(j.name(), j.submitAtMs(),
        j.weight(), j.model().name(), j.tasksPerRound(), j.rounds())).toList();
    return new Simulator(cluster(nodes), specs, times, SimOptions.defaults()).run(policy);
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
