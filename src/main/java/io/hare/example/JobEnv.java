package io.hare.example;

import static io.hare.core.TaskContract.CUDA_VISIBLE_DEVICES;
import static io.hare.core.TaskContract.GPU_DEVICE;
import static io.hare.core.TaskContract.GPU_TYPE;
import static io.hare.core.TaskContract.JOB_ID;
import static io.hare.core.TaskContract.ROUND;
import static io.hare.core.TaskContract.TASKS_PER_ROUND;
import static io.hare.core.TaskContract.TASK_INDEX;
import static io.hare.core.TaskContract.WORK_DIR;

import io.hare.core.BadInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * The environment contract between the Hare ApplicationMaster and a task or sync process,
 * parsed and checked. A task gets {@code HARE_JOB_ID}, {@code HARE_ROUND} (0-based),
 * {@code HARE_TASK_INDEX} (0..k-1), {@code HARE_TASKS_PER_ROUND} (k), {@code HARE_WORK_DIR} and
 * {@code HARE_GPU_TYPE}; the sync step of a round gets the same without
 * {@code HARE_TASK_INDEX}. {@code HARE_JOB_ID} and {@code HARE_GPU_TYPE} only label logs and
 * pick the demo slowdown, so they may be missing or empty. The GPU device a task runs on is
 * {@code HARE_GPU_DEVICE} where Hare assigned it, else {@code CUDA_VISIBLE_DEVICES} (as YARN or
 * the user set it); the CPU example only reports it.
 *
 * @param taskIndex the task's index, or -1 for the sync step
 * @param gpuType the GPU type as given (may be empty), never null
 * @param gpuDevice the GPU device the process sees, empty if none is named
 */
public record JobEnv(String jobId, int round, int taskIndex, int tasksPerRound, String workDir,
    String gpuType, String gpuDevice) {

  /** The environment of a task; every problem is reported at once, each naming its variable. */
  public static JobEnv forTask(Env env) throws BadInputException {
    return parse(env, true);
  }

  /** The environment of a round's sync step ({@code HARE_TASK_INDEX} is ignored). */
  public static JobEnv forSync(Env env) throws BadInputException {
    return parse(env, false);
  }

  private static JobEnv parse(Env env, boolean task) throws BadInputException {
    List<String> problems = new ArrayList<>();
    int round = number(env, ROUND, 0, problems);
    int k = number(env, TASKS_PER_ROUND, 1, problems);
    int index = task ? number(env, TASK_INDEX, 0, problems) : -1;
    if (task && index >= 0 && k >= 1 && index >= k) {
      problems.add(TASK_INDEX + ": must be less than " + TASKS_PER_ROUND + " (" + k + "), got "
          + index);
    }
    String dir = env.get(WORK_DIR);
    if (dir == null || dir.isBlank()) {
      problems.add(WORK_DIR + ": missing (the job's shared work directory)");
    }
    if (!problems.isEmpty()) {
      throw new BadInputException("bad environment: " + String.join("; ", problems));
    }
    String device = orEmpty(env.get(GPU_DEVICE)).strip();
    if (device.isEmpty()) {
      device = orEmpty(env.get(CUDA_VISIBLE_DEVICES)).strip();
    }
    return new JobEnv(orEmpty(env.get(JOB_ID)), round, index, k, dir.strip(),
        orEmpty(env.get(GPU_TYPE)).strip(), device);
  }

  /** The whole number in {@code name}, at least {@code min}; -1 (and a problem) otherwise. */
  private static int number(Env env, String name, int min, List<String> problems) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      problems.add(name + ": missing");
      return -1;
    }
    try {
      int n = Integer.parseInt(v.strip());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the allowed range
    }
    problems.add(name + ": must be a whole number >= " + min + ", got '" + v + "'");
    return -1;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }

  /** {@code job J round R task I/K} for logs. */
  public String label() {
    String who = taskIndex >= 0 ? "task " + taskIndex + "/" + tasksPerRound
        : "sync of " + tasksPerRound + " tasks";
    return (jobId.isEmpty() ? "" : "job " + jobId + " ") + "round " + round + " " + who;
  }
}
