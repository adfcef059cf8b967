package io.hare.worker;

/**
 * What a resident worker does for each task: the job's computation, using the state the worker
 * built once (framework, model, data). Runs on the worker's one thread, one task at a time.
 */
@FunctionalInterface
public interface TaskBody {

  /**
   * Runs {@code task}; its exit code (0: success), as a task process would return it. An
   * exception counts as exit code 1: the ApplicationMaster runs the task again, and the worker
   * takes its next task.
   */
  int run(Task task) throws Exception;
}
