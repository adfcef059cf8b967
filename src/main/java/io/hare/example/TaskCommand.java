package io.hare.example;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * {@code task}: one task of one round, as the AM launches it. Reads model r and the data set
 * from {@code HARE_WORK_DIR}, computes the mean gradient of its mini-batch
 * ({@link SoftmaxRegression#batch}) and writes {@code grad-r<r>-t<i>} atomically. A retry
 * rewrites the same bytes, whatever node or GPU type it runs on.
 */
@Command(name = "task", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Computes one task's gradient. Reads HARE_ROUND, HARE_TASK_INDEX, "
        + "HARE_TASKS_PER_ROUND, HARE_WORK_DIR (and HARE_GPU_TYPE, HARE_JOB_ID, "
        + "HARE_GPU_DEVICE or CUDA_VISIBLE_DEVICES) from the environment."})
final class TaskCommand implements Callable<Integer> {

  private final Env env;

  @Spec
  CommandSpec spec;

  @Mixin
  TaskOptions options;

  TaskCommand(Env env) {
    this.env = env;
  }

  @Override
  public Integer call() throws Exception {
    JobEnv e = JobEnv.forTask(env.withWorkDir(options.workDir));
    GpuEmulation emulation = options.emulation();
    GradientTask task = new GradientTask(new WorkFiles(WorkStore.open(e.workDir())), emulation);
    PrintWriter out = spec.commandLine().getOut();
    out.println(GradientTask.describe(e, task.run(e)));
    out.flush();
    return SgdJob.OK;
  }
}
