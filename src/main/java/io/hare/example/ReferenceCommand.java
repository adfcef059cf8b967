package io.hare.example;

import io.hare.core.BadInputException;
import java.io.PrintWriter;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code reference}: plain sequential synchronous SGD in one process, from the data and model
 * round 0 that {@code init} wrote: per round, the k task gradients in index order, then the
 * same step as {@code sync}. Prints the loss lines {@code sync} logs and writes the final model,
 * which a Hare run of the job must equal byte for byte.
 */
@Command(name = "reference", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Trains the initialised job in one process; what a Hare run must equal.")
final class ReferenceCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--work-dir", required = true, paramLabel = "DIR",
      description = "A work directory initialised by 'init' (only read, except --out).")
  String workDir;

  @Option(names = "--rounds", required = true, paramLabel = "R", description = "Rounds.")
  int rounds;

  @Option(names = "--tasks-per-round", required = true, paramLabel = "K",
      description = "Tasks per round.")
  int tasksPerRound;

  @Option(names = "--out", paramLabel = "NAME",
      description = "File name in the work directory for the final model "
          + "(default reference-model-r<R>).")
  String out;

  @Override
  public Integer call() throws Exception {
    if (rounds < 1 || tasksPerRound < 1) {
      throw new BadInputException("--rounds and --tasks-per-round: must be >= 1, got " + rounds
          + " and " + tasksPerRound);
    }
    WorkFiles files = new WorkFiles(WorkStore.open(workDir));
    JobConfig config = files.config();
    Dataset data = files.data(config);
    Model m = files.model(0, config);
    PrintWriter pw = spec.commandLine().getOut();
    pw.print(WorkFiles.LOSS_HEADER);
    for (int r = 0; r < rounds; r++) {
      List<Gradient> grads = new ArrayList<>();
      for (int i = 0; i < tasksPerRound; i++) {
        int[] batch = SoftmaxRegression.batch(r, i, tasksPerRound, config.batchSize(),
            config.examples());
        grads.add(SoftmaxRegression.gradient(m, data, batch, i, tasksPerRound));
      }
      m = SoftmaxRegression.step(m, grads, config.learningRate());
      pw.print(WorkFiles.lossLine(r, SoftmaxRegression.meanBatchLoss(grads),
          SoftmaxRegression.loss(m, data)));
    }
    String name = out != null ? out : "reference-model-r" + rounds;
    byte[] bytes = m.encode();
    files.write(name, bytes);
    pw.println("wrote " + files.where(name) + " sha256 "
        + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    pw.flush();
    return SgdJob.OK;
  }
}
