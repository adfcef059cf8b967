package io.hare.example;

import io.hare.core.TaskContract;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;

/** Runs {@code SgdJob ...} in-process with an environment map and captured stdout/stderr. */
final class SgdJobRun {

  final int code;
  final String out;
  final String err;

  private SgdJobRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  /** As {@code SgdJob.main} runs it: the tree holds only the subcommand {@code args} name. */
  static SgdJobRun run(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SgdJob.commandLine(new PrintWriter(out), new PrintWriter(err), Env.of(env),
        args.length > 0 ? args[0] : "").execute(args);
    return new SgdJobRun(code, out.toString(), err.toString());
  }

  /** The environment the AM gives task {@code index} (-1: the sync step) of round r. */
  static Map<String, String> env(String workDir, int round, int index, int k, String gpuType) {
    Map<String, String> env = new HashMap<>();
    env.put(TaskContract.JOB_ID, "application_1_0001");
    env.put(TaskContract.ROUND, Integer.toString(round));
    if (index >= 0) {
      env.put(TaskContract.TASK_INDEX, Integer.toString(index));
    }
    env.put(TaskContract.TASKS_PER_ROUND, Integer.toString(k));
    env.put(TaskContract.WORK_DIR, workDir);
    env.put(TaskContract.GPU_TYPE, gpuType);
    return env;
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
