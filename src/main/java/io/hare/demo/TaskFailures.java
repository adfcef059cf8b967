package io.hare.demo;

import io.hare.embedded.TaskEvents;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;

/**
 * task-failure, done by the task commands the harness gives the jobs (the AM runs them as any
 * user's command; nothing in it knows):
 * <ul>
 *   <li>the first attempt of task 0 of round 1 of one job (the workload's second job with at least
 *       2 rounds, else its first) exits {@value #ONCE_EXIT}: a marker directory in the job's work
 *       directory, created atomically by {@code mkdir}, tells the first attempt from its retry;
 *       the AM retries it and the job succeeds;
 *   <li>an extra job {@value #ALWAYS_FAILS} (one round of one task), submitted with the first
 *       job, whose task exits {@value #ALWAYS_EXIT} on every attempt: the AM gives up after
 *       {@code task.max-attempts} and the job ends FAILED with a diagnostic naming the round, the
 *       task, the exit code and the container's log; the other jobs are not affected.
 * </ul>
 * Both are reported when they are seen in the jobs' events, at the failing attempt's end.
 */
final class TaskFailures {

  static final String ALWAYS_FAILS = "always-fails";
  static final int ONCE_EXIT = 3;
  static final int ALWAYS_EXIT = 7;
  static final String MARKER = "injected-failure-done";

  private String onceJob;
  private int onceRound;
  private Injected once;
  private Injected always;

  List<DemoJob> jobs(List<DemoJob> workload) {
    List<DemoJob> multi = workload.stream().filter(j -> j.rounds() >= 2).toList();
    DemoJob target = multi.size() >= 2 ? multi.get(1) : multi.isEmpty() ? workload.get(0)
        : multi.get(0);
    onceJob = target.name();
    onceRound = Math.min(1, target.rounds() - 1);
    List<DemoJob> out = new ArrayList<>(workload);
    DemoJob first = workload.get(0);
    out.add(1, new DemoJob(ALWAYS_FAILS, DemoModel.GRAPHSAGE, 1, 1, 1, first.submitAtMs(), 97));
    return out;
  }

  /** Whether {@link #taskCommand} changes {@code job}'s command. */
  boolean rewrites(DemoJob job) {
    return job.name().equals(ALWAYS_FAILS) || job.name().equals(onceJob);
  }

  String taskCommand(DemoJob job, File workDir, String command) {
    if (job.name().equals(ALWAYS_FAILS)) {
      return "echo 'hare demo: injected task failure: this task always fails' >&2; exit "
          + ALWAYS_EXIT;
    }
    if (!job.name().equals(onceJob)) {
      return command;
    }
    String marker = "'" + new File(workDir, MARKER).getAbsolutePath().replace("'", "'\\''") + "'";
    return "if [ \"$HARE_ROUND\" = " + onceRound + " ] && [ \"$HARE_TASK_INDEX\" = 0 ]"
        + " && mkdir " + marker + " 2>/dev/null; then echo 'hare demo: injected task failure:"
        + " the first attempt of this task fails' >&2; exit " + ONCE_EXIT + "; fi; " + command;
  }

  void observe(RunView run) throws Exception {
    for (DemoJob j : run.submitted().keySet()) {
      if (once == null && j.name().equals(onceJob)) {
        Optional<TaskEvents.Attempt> a = failed(run, j, ONCE_EXIT);
        if (a.isPresent()) {
          once = new Injected(Fault.TASK_FAILURE.label(), a.get().endMs(), "the first attempt"
              + " of " + j.name() + " " + ActiveFault.describe(a.get()) + " on " + a.get().host()
              + " exited " + ONCE_EXIT + " (its command fails once); the AM runs it again",
              List.of(a.get().containerId()));
        }
      }
      if (always == null && j.name().equals(ALWAYS_FAILS) && run.ended(j)) {
        Optional<TaskEvents.Attempt> a = failed(run, j, ALWAYS_EXIT);
        RMApp app = run.app(j);
        List<String> containers = run.events(j).attempts().stream()
            .map(TaskEvents.Attempt::containerId).toList();
        always = new Injected(Fault.TASK_FAILURE.label(), a.isPresent() ? a.get().endMs()
            : app.getFinishTime(), j.name() + ": its task exits " + ALWAYS_EXIT + " on every"
            + " attempt (" + containers.size() + " attempts); the job ended " + app.getState()
            + " (" + app.getFinalApplicationStatus() + "): "
            + DemoReport.firstLine(app.getDiagnostics().toString()), containers);
      }
    }
  }

  /** What was seen, or what was asked for and not seen. */
  List<Injected> injected() {
    List<Injected> out = new ArrayList<>();
    out.add(once != null ? once : new Injected(Fault.TASK_FAILURE.label(), -1, "not seen: the"
        + " first attempt of " + onceJob + " round " + onceRound + " task 0 exiting "
        + ONCE_EXIT, List.of()));
    out.add(always != null ? always : new Injected(Fault.TASK_FAILURE.label(), -1, "not seen: "
        + ALWAYS_FAILS + " ending", List.of()));
    return out;
  }

  private static Optional<TaskEvents.Attempt> failed(RunView run, DemoJob j, int exit)
      throws Exception {
    return run.events(j).attempts().stream().filter(a -> a.ended() && a.exitCode() == exit)
        .findFirst();
  }
}
