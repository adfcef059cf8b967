package io.hare.example;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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

  @Option(names = "--type-factors", paramLabel = "TYPE=FACTOR,...",
      description = {"Demo only: emulate slower GPU types by repeating the gradient computation "
          + "FACTOR times on a node whose HARE_GPU_TYPE is TYPE (e.g. v100=1,t4=2.2,k80=6.9). "
          + "Off by default; never changes the result."})
  String typeFactors;

  @Option(names = "--base-repeats", defaultValue = "1", paramLabel = "N",
      description = "Demo only: gradient computations at factor 1 (${DEFAULT-VALUE}).")
  int baseRepeats;

  @Option(names = "--gpu-ms", defaultValue = "0", paramLabel = "MS",
      description = {"Demo only: pace the emulated GPU instead of repeating work: compute the "
          + "gradient --base-repeats times on any type, then hold the GPU until FACTOR x MS "
          + "have passed (0, the default: off)."})
  long gpuMs;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = {"The job's data directory (what init wrote); wins over HARE_WORK_DIR, "
          + "which is the AM's staging directory when the job runs under Hare."})
  String workDir;

  TaskCommand(Env env) {
    this.env = env;
  }

  @Override
  public Integer call() throws Exception {
    JobEnv e = JobEnv.forTask(env.withWorkDir(workDir));
    GpuEmulation emulation = GpuEmulation.parse(typeFactors, baseRepeats, gpuMs, "--type-factors");
    WorkFiles files = new WorkFiles(WorkStore.open(e.workDir()));
    JobConfig config = files.config();
    Dataset data = files.data(config);
    Model model = files.model(e.round(), config);
    int[] batch = SoftmaxRegression.batch(e.round(), e.taskIndex(), e.tasksPerRound(),
        config.batchSize(), config.examples());
    long start = System.nanoTime();
    Gradient g = emulation.run(e.gpuType(),
        () -> SoftmaxRegression.gradient(model, data, batch, e.taskIndex(), e.tasksPerRound()));
    long ms = (System.nanoTime() - start) / 1_000_000;
    String name = WorkFiles.gradient(e.round(), e.taskIndex());
    files.write(name, g.encode());
    PrintWriter out = spec.commandLine().getOut();
    out.printf("%s on GPU type '%s' device '%s': wrote %s (batch loss %s; %d computation(s),"
        + " %d ms)%n", e.label(), e.gpuType(), e.gpuDevice(), files.where(name), g.batchLoss(),
        emulation.repeats(e.gpuType()), ms);
    out.flush();
    return SgdJob.OK;
  }
}
