package io.hare.yarn.app;

/**
 * The command of a warm task container: bash that runs the job's task command, then, if the
 * container knows its ApplicationMaster's runner server ({@code HARE_RUNNER_HOST},
 * {@code HARE_RUNNER_PORT}, {@code HARE_RUNNER_SECRET}), reports each task's exit code to it
 * and runs the next task it is given ({@code HARE_ROUND} and {@code HARE_TASK_INDEX} change, and
 * {@code HARE_GPU_DEVICE} and {@code CUDA_VISIBLE_DEVICES} when the AM names a device; everything
 * else is the container's), until told to exit. So consecutive tasks of one job on one
 * GPU cost a line over a socket instead of a container launch. Protocol: {@link RunnerServer}.
 *
 * <p>A standby container ({@value #STANDBY} set and not empty: the scheduler pre-launched it,
 * without its GPU, for the job next in line for one) runs no first task: it connects at once,
 * says {@code ready} instead of {@code done}, and waits for the AM to hand it a task once the
 * scheduler has given it the GPU. Its tasks do not see {@value #STANDBY}. A runner told
 * {@code park} after a task becomes such a standby: it says {@code ready} and waits.
 *
 * <p>Exit status: the first task's own when no runner server can be reached (a plain one-task
 * container, so nothing depends on bash's {@code /dev/tcp}); for a standby, 0 then (it ran
 * nothing); 0 when the AM said exit (it has every result); {@value #LOST} when the connection
 * broke with a result or a task unsent (the AM then counts the task it gave last as failed and
 * runs it again).
 */
final class TaskRunnerScript {

  /** Exit status of a runner that lost its AM with a result or a task not delivered. */
  static final int LOST = 75;
  /** The variable that makes a runner a standby. */
  static final String STANDBY = "HARE_STANDBY";

  private TaskRunnerScript() {}

  /** The bash script running {@code taskCommand} (a shell command line) as described above. */
  static String of(String taskCommand) {
    String task = "bash -c " + TaskLaunch.quote(taskCommand);
    // "say" is the runner's next line: "ready" for a standby, else the last task's "done RC"
    return "task() { " + task + "; }; "
        + "if [ -n \"${" + STANDBY + ":-}\" ]; then unset " + STANDBY + "; rc=0; say=ready; "
        + "else task; rc=$?; say=\"done $rc\"; fi; "
        + "[ -n \"${HARE_RUNNER_PORT:-}\" ] || exit $rc; "
        + "exec 3<>\"/dev/tcp/${HARE_RUNNER_HOST}/${HARE_RUNNER_PORT}\" 2>/dev/null || exit $rc; "
        + "printf 'hello %s %s\\n' \"$CONTAINER_ID\" \"$HARE_RUNNER_SECRET\" >&3 || exit $rc; "
        + "while printf '%s\\n' \"$say\" >&3; do "
        + "IFS=' ' read -r verb round index device <&3 || exit " + LOST + "; "
        + "if [ \"$verb\" = park ]; then say=ready; continue; fi; "
        + "[ \"$verb\" = run ] || exit 0; "
        + "case \"$round$index\" in ''|*[!0-9]*) exit " + LOST + ";; esac; "
        + "export HARE_ROUND=\"$round\" HARE_TASK_INDEX=\"$index\"; "
        + "case \"$device\" in '') ;; *[!0-9]*) exit " + LOST + ";; *) export HARE_GPU_DEVICE="
        + "\"$device\" CUDA_VISIBLE_DEVICES=\"$device\";; esac; "
        + "task; rc=$?; say=\"done $rc\"; "
        + "done; exit " + LOST;
  }
}
