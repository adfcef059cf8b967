package io.hare.yarn.app;

import static io.hare.core.TaskContract.CUDA_VISIBLE_DEVICES;
import static io.hare.core.TaskContract.GPU_DEVICE;
import static io.hare.core.TaskContract.GPU_TYPE;
import static io.hare.core.TaskContract.JOB_ID;
import static io.hare.core.TaskContract.ROUND;
import static io.hare.core.TaskContract.STANDBY_DEVICE;
import static io.hare.core.TaskContract.TASKS_PER_ROUND;
import static io.hare.core.TaskContract.TASK_INDEX;
import static io.hare.core.TaskContract.WORK_DIR;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.hadoop.fs.Path;

/**
 * The environment contract of task and sync processes: the spec's extra variables plus
 * {@code HARE_JOB_ID}, {@code HARE_ROUND} (0-based), {@code HARE_TASK_INDEX} (tasks only),
 * {@code HARE_TASKS_PER_ROUND}, {@code HARE_WORK_DIR} and {@code HARE_GPU_TYPE} (empty if unknown);
 * a task also {@code HARE_GPU_DEVICE} and {@code CUDA_VISIBLE_DEVICES} where Hare assigns its
 * device ({@link #withDevice}).
 * A standby container's environment has no task index yet: its runner sets {@code HARE_ROUND}
 * and {@code HARE_TASK_INDEX} from the task the AM hands it ({@link TaskRunnerScript}).
 */
public final class TaskEnv {

  private TaskEnv() {}

  /**
   * {@code HARE_WORK_DIR} as tasks see it: the work directory's plain path when it is on the
   * local file system ({@code file:}, e.g. an NFS mount every node shares) and that is the
   * cluster's default file system, so that code outside Hadoop (a shell, Python's {@code open})
   * reads it as it is and Hadoop's {@code Path} resolves it to the same place; its URI otherwise
   * ({@code hdfs://...}, which only a Hadoop client can read, or {@code file:} beside another
   * default file system, where a plain path would mean a directory of that one), written as
   * Hadoop writes a {@code Path}: unescaped, so that {@code new Path(HARE_WORK_DIR)} is the same.
   */
  public static String workDirForTasks(Path workDir, URI defaultFs) {
    URI u = workDir.toUri();
    return "file".equals(u.getScheme()) && "file".equals(defaultFs.getScheme())
        ? u.getPath() : workDir.toString();
  }

  public static Map<String, String> forTask(HareJobSpec spec, String jobId, String workDir,
      int round, int index, String gpuType) {
    Map<String, String> env = forSync(spec, jobId, workDir, round);
    env.put(TASK_INDEX, Integer.toString(index));
    env.put(GPU_TYPE, gpuType);
    return env;
  }

  /**
   * Adds the task's GPU device ({@link io.hare.yarn.GpuDevices}: the scheduler's index on a node
   * whose GPUs YARN does not isolate) as {@code HARE_GPU_DEVICE} and
   * {@code CUDA_VISIBLE_DEVICES}; none: YARN exposes the device it assigned, which nothing
   * overrides.
   */
  public static Map<String, String> withDevice(Map<String, String> env, OptionalInt device) {
    device.ifPresent(d -> {
      env.put(GPU_DEVICE, Integer.toString(d));
      env.put(CUDA_VISIBLE_DEVICES, Integer.toString(d));
    });
    return env;
  }

  /**
   * A standby container on a node with {@code gpuType}, launched during round {@code round},
   * made for the node's GPU {@code expected} (none: a parked container, or no hint).
   */
  public static Map<String, String> forStandby(HareJobSpec spec, String jobId, String workDir,
      int round, String gpuType, OptionalInt expected) {
    Map<String, String> env = forSync(spec, jobId, workDir, round);
    env.put(GPU_TYPE, gpuType);
    expected.ifPresent(d -> env.put(STANDBY_DEVICE, Integer.toString(d)));
    return env;
  }

  public static Map<String, String> forSync(HareJobSpec spec, String jobId, String workDir,
      int round) {
    Map<String, String> env = new LinkedHashMap<>(spec.env());
    env.put(JOB_ID, jobId);
    env.put(ROUND, Integer.toString(round));
    env.put(TASKS_PER_ROUND, Integer.toString(spec.tasksPerRound()));
    env.put(WORK_DIR, workDir);
    env.put(GPU_TYPE, "");
    return env;
  }
}
