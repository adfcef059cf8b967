package io.hare.example;

import io.hare.core.BadInputException;
import io.hare.core.TaskContract;
import io.hare.worker.ResidentSync;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sync}: the barrier step of round r, run once all k tasks succeeded. Reads the k
 * gradients in task-index order, averages them (sum in index order, then divide by k), applies
 * one SGD step to model r, writes model r+1 atomically and records the round's losses in
 * {@value WorkFiles#LOSS_LOG}. Deletes nothing (see {@link WorkFiles}); running it again
 * rewrites the same bytes.
 */
@Command(name = "sync", mixinStandardHelpOptions = true,
    description = {"Averages a round's gradients and writes the next model. Reads HARE_ROUND, "
        + "HARE_TASKS_PER_ROUND and HARE_WORK_DIR from the environment."})
final class SyncCommand implements Callable<Integer> {

  private final Env env;

  @Spec
  CommandSpec spec;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = {"The job's data directory (what init wrote); wins over HARE_WORK_DIR, "
          + "which is the AM's staging directory when the job runs under Hare."})
  String workDir;

  @Option(names = "--events", paramLabel = "FILE",
      description = {"Append each round's sync-start and sync-end lines to FILE, in the"
          + " embedded cluster's events format."})
  Path events;

  SyncCommand(Env env) {
    this.env = env;
  }

  /**
   * Runs the round of the environment; under {@code yarn.app.hare.sync.mode=resident}
   * ({@link ResidentSync}) then each round the AM asks for, in this JVM.
   */
  @Override
  public Integer call() throws Exception {
    Env base = env.withWorkDir(workDir);
    if (!"1".equals(base.get(ResidentSync.RESIDENT))) {
      return round(base);
    }
    return ResidentSync.serve(base::get, round -> {
      try {
        return round(name -> TaskContract.ROUND.equals(name) ? Integer.toString(round)
            : base.get(name));
      } catch (BadInputException e) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + e.getMessage());
        err.flush();
        return SgdJob.BAD_INPUT;
      }
    });
  }

  /** One round's sync step, the round of {@code roundEnv}, recorded in the events file. */
  private int round(Env roundEnv) throws Exception {
    JobEnv e = JobEnv.forSync(roundEnv);
    EventsFile log = events == null ? null : new EventsFile(events, roundEnv);
    if (log == null) {
      return sync(e);
    }
    log.syncStart(e.round());
    int code = SgdJob.FAILURE;
    try {
      code = sync(e);
      return code;
    } catch (BadInputException x) {
      code = SgdJob.BAD_INPUT;
      throw x;
    } finally {
      log.syncEnd(e.round(), code);
    }
  }

  private int sync(JobEnv e) throws Exception {
    WorkFiles files = new WorkFiles(WorkStore.open(e.workDir()));
    JobConfig config = files.config();
    Model model = files.model(e.round(), config);
    List<Gradient> grads = gradients(files, e, config);
    Model next = SoftmaxRegression.step(model, grads, config.learningRate());
    files.write(WorkFiles.model(next.round()), next.encode());
    double batchLoss = SoftmaxRegression.meanBatchLoss(grads);
    double lossAfter = SoftmaxRegression.loss(next, files.data(config));
    files.logLoss(e.round(), batchLoss, lossAfter);
    PrintWriter out = spec.commandLine().getOut();
    out.printf("%s: wrote %s (batch loss %s, loss after %s)%n", e.label(),
        files.where(WorkFiles.model(next.round())), batchLoss, lossAfter);
    out.flush();
    return SgdJob.OK;
  }

  /** The k gradients of the round in task-index order; every missing or foreign one named. */
  private static List<Gradient> gradients(WorkFiles files, JobEnv e, JobConfig config)
      throws Exception {
    List<Gradient> grads = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < e.tasksPerRound(); i++) {
      String name = WorkFiles.gradient(e.round(), i);
      if (!files.store().exists(name)) {
        missing.add(files.where(name));
        continue;
      }
      Gradient g = Gradient.decode(files.store().read(name), files.where(name));
      if (g.round() != e.round() || g.taskIndex() != i || g.tasksPerRound() != e.tasksPerRound()
          || g.classes() != config.classes() || g.features() != config.features()) {
        throw new BadInputException(files.where(name) + ": written for round " + g.round()
            + " task " + g.taskIndex() + " of " + g.tasksPerRound() + " (C=" + g.classes()
            + ", F=" + g.features() + "), not for round " + e.round() + " task " + i + " of "
            + e.tasksPerRound());
      }
      grads.add(g);
    }
    if (!missing.isEmpty()) {
      throw new BadInputException("round " + e.round() + ": " + missing.size() + " of "
          + e.tasksPerRound() + " gradients missing (their tasks have not succeeded): "
          + String.join(", ", missing));
    }
    return grads;
  }
}
