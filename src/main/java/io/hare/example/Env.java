package io.hare.example;

import java.util.Map;

/**
 * The process environment as the example job sees it: the port tests replace with a map, so a
 * task or sync step runs in-process with any environment.
 */
@FunctionalInterface
public interface Env {

  /** The real environment of this process. */
  Env SYSTEM = System::getenv;

  /** The value of {@code name}, or null when it is not set. */
  String get(String name);

  /** An environment holding exactly {@code vars}. */
  static Env of(Map<String, String> vars) {
    return vars::get;
  }

  /**
   * This environment with {@code HARE_WORK_DIR} replaced by {@code workDir}, or itself when
   * {@code workDir} is null: the job's data directory is chosen before submission, while the
   * AM's {@code HARE_WORK_DIR} (its staging directory) exists only after it.
   */
  default Env withWorkDir(String workDir) {
    return workDir == null ? this
        : name -> io.hare.core.TaskContract.WORK_DIR.equals(name) ? workDir : get(name);
  }
}
