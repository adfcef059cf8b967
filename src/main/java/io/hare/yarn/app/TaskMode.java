package io.hare.yarn.app;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How a task container runs the job's tasks ({@code yarn.app.hare.task.mode}).
 *
 * <ul>
 *   <li>{@link #PROCESS}: the task command is one task; the container runs it as a new process
 *       for every task it is given (through the bash runner when containers are reused).
 *   <li>{@link #RESIDENT}: the task command is the job's worker, started once per container; it
 *       speaks the task channel itself ({@link io.hare.worker.ResidentWorker}, or the Python
 *       package {@code hare_worker}) and keeps its framework state between tasks.
 * </ul>
 */
public enum TaskMode {
  PROCESS, RESIDENT;

  /** The name in a job spec. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode named {@code s} (any case); empty when there is none. */
  public static Optional<TaskMode> parse(String s) {
    return Arrays.stream(values()).filter(m -> m.key().equalsIgnoreCase(s.strip())).findFirst();
  }
}
