package io.hare.demo;

import io.hare.embedded.SchedulerJournal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a demo run's machine was too loaded for its figures to mean much. The policies differ
 * in how they use GPU time; what YARN and the machine add to every task (its container's launch,
 * its process's start-up and end) is the same under any policy only while the machine keeps up.
 * So a run warns when, on its median task, either of those took more than
 * {@link #MAX_SHARE} of the median task's time on its emulated GPU (the model's slowdown on its
 * type x {@code --task-ms}):
 * <ul>
 *   <li>launch: the scheduler allocating the container ({@link SchedulerJournal.Kind#STARTED})
 *       to its first task process starting (the task's recorded start);
 *   <li>start-up: a task process's start to end less its time on the GPU.
 * </ul>
 * Half, not less: an idle machine still pays about two heartbeats to launch a container and a
 * JVM's start-up, under a second, against tasks of 1.5-10 s on the demo's defaults; a loaded
 * 2-core machine pays seconds, as much as the GPU time, and then two runs of one policy differ
 * by as much as two policies do.
 */
public final class LoadCheck {

  /** The share of the median GPU time above which the median launch or start-up warns. */
  public static final double MAX_SHARE = 0.5;

  /**
   * A run's medians, ms; NaN where the run has no such measure (no journal, no ended task).
   *
   * @param launchMs container allocation to its first task process's start
   * @param startupMs a task process's time beyond its GPU time
   * @param gpuMs a task's time on its emulated GPU
   */
  public record Medians(double launchMs, double startupMs, double gpuMs) {}

  private LoadCheck() {}

  /** The warning of a run whose tasks were paced at {@code gpuMs} on a V100, if any. */
  public static Optional<String> warning(DemoResult run, long gpuMs) {
    return warning(medians(run, gpuMs));
  }

  /** The warning for these medians, if either is above {@link #MAX_SHARE} of the GPU time. */
  public static Optional<String> warning(Medians m) {
    double limit = MAX_SHARE * m.gpuMs();
    if (!(m.launchMs() > limit) && !(m.startupMs() > limit)) {
      return Optional.empty(); // also when a measure is missing (NaN)
    }
    return Optional.of(String.format(Locale.ROOT, "the machine was loaded: on the median task, "
        + "its container took %.1f s from allocation to the task's process start and the process "
        + "%.1f s to start and end, against %.1f s on its emulated GPU (this warning comes above "
        + "%.0f %%); YARN's overheads weigh on these figures as much as the policy does. Run it "
        + "alone, on more cores, with a larger --task-ms or fewer --jobs", m.launchMs() / 1000,
        m.startupMs() / 1000, m.gpuMs() / 1000, MAX_SHARE * 100));
  }

  /** The run's medians over its successful task attempts. */
  public static Medians medians(DemoResult run, long gpuMs) {
    Map<String, DemoModel> modelOf = new HashMap<>();
    // a job of another model, or a task on a type the models do not know, has no GPU time here
    run.jobs().forEach(j -> DemoModel.ALL.stream().filter(m -> m.name().equals(j.model()))
        .findFirst().ifPresent(m -> modelOf.put(j.appId(), m)));
    Map<String, Long> allocated = new HashMap<>();
    for (SchedulerJournal.Entry e : run.journal()) {
      if (e.kind() == SchedulerJournal.Kind.STARTED) {
        allocated.putIfAbsent(e.containerId(), e.ms());
      }
    }
    Map<String, Long> firstStart = new HashMap<>();
    run.tasks().forEach(t -> firstStart.merge(t.containerId(), t.startMs(), Math::min));
    double[] launch = firstStart.entrySet().stream().filter(e -> allocated.containsKey(e.getKey()))
        .mapToDouble(e -> e.getValue() - allocated.get(e.getKey())).toArray();
    List<DemoResult.Task> done = run.tasks().stream().filter(t -> "SUCCEEDED".equals(t.state())
        && modelOf.containsKey(t.appId()) && DemoModel.TYPES.contains(t.gpuType())).toList();
    double[] gpu = done.stream().mapToDouble(t -> modelOf.get(t.appId()).slowdown(t.gpuType())
        * gpuMs).toArray();
    double[] startup = new double[done.size()];
    for (int i = 0; i < done.size(); i++) {
      startup[i] = done.get(i).endMs() - done.get(i).startMs() - gpu[i];
    }
    return new Medians(median(launch), median(startup), median(gpu));
  }

  /** The median (the mean of the middle two for an even count); NaN for none. */
  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
