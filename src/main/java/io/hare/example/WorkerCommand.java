package io.hare.example;

import io.hare.core.BadInputException;
import io.hare.core.TaskContract;
import io.hare.worker.ResidentWorker;
import io.hare.worker.Task;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code worker}: the resident form of {@code task} ({@code yarn.app.hare.task.mode=resident}).
 * It reads the job's settings and data set once, then takes task after task over the task
 * channel ({@link ResidentWorker}); each task reads its round's model (once per round) and
 * writes the same gradient file, byte for byte, as {@code task} would. Without a task channel it
 * runs the one task of its environment, as {@code task} does.
 */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Computes task after task of the job in one process (resident mode). Reads "
        + "the container's environment: the task channel (HARE_RUNNER_HOST, HARE_RUNNER_PORT, "
        + "the key in HADOOP_TOKEN_FILE_LOCATION), the first task (HARE_ROUND, "
        + "HARE_TASK_INDEX) and HARE_TASKS_PER_ROUND, HARE_WORK_DIR, HARE_GPU_TYPE."})
final class WorkerCommand implements Callable<Integer> {

  private final Env env;

  @Spec
  CommandSpec spec;

  @Mixin
  TaskOptions options;

  @Option(names = "--events", paramLabel = "FILE",
      description = {"Demo and benchmarks only: append each task's start and end to FILE, in the"
          + " embedded cluster's events format."})
  Path events;

  WorkerCommand(Env env) {
    this.env = env;
  }

  @Override
  public Integer call() throws Exception {
    Env base = env.withWorkDir(options.workDir);
    JobEnv first = JobEnv.forSync(base); // checks the job's variables; the task comes per task
    GpuEmulation emulation = options.emulation();
    GradientTask work = new GradientTask(new WorkFiles(WorkStore.open(first.workDir())),
        emulation);
    EventsFile log = events == null ? null : new EventsFile(events, base);
    PrintWriter out = spec.commandLine().getOut();
    return new ResidentWorker(base::get, spec.commandLine().getErr()).run(t -> {
      Env e = forTask(base, t);
      String device = t.device().isPresent() ? Integer.toString(t.device().getAsInt()) : "";
      if (log != null) {
        log.start(t.round(), t.index(), device);
      }
      int code = SgdJob.FAILURE;
      try {
        JobEnv task = JobEnv.forTask(e);
        out.println(GradientTask.describe(task, work.run(task)));
        out.flush();
        code = SgdJob.OK;
      } catch (BadInputException bad) {
        // as task says it: one line naming the variable or file, not a stack trace
        spec.commandLine().getErr().println(spec.qualifiedName() + ": " + t.label() + ": "
            + bad.getMessage());
        code = SgdJob.BAD_INPUT;
      } finally {
        if (log != null) {
          log.end(t.round(), t.index(), code, device);
        }
      }
      return code;
    });
  }

  /** The environment {@code task} would see for {@code t}. */
  private static Env forTask(Env base, Task t) {
    return name -> switch (name) {
      case TaskContract.ROUND -> Integer.toString(t.round());
      case TaskContract.TASK_INDEX -> Integer.toString(t.index());
      case TaskContract.GPU_DEVICE -> t.device().isPresent()
          ? Integer.toString(t.device().getAsInt()) : base.get(name);
      default -> base.get(name);
    };
  }
}
