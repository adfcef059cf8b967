package io.hare.example;

import io.hare.core.BadInputException;
import java.io.IOException;

/**
 * One task's work, given the job's inputs read once: the mean gradient of the task's
 * mini-batch ({@link SoftmaxRegression#batch}) under model r, written atomically as
 * {@code grad-r<r>-t<i>}. The {@code task} command makes one and runs it once; the resident
 * {@code worker} keeps one for its whole life, so the data set is read once per container and
 * each round's model once per round.
 */
final class GradientTask {

  /** What a task wrote, for its log line. */
  record Result(String where, double batchLoss, long computations, long ms) {}

  private final WorkFiles files;
  private final JobConfig config;
  private final Dataset data;
  private final GpuEmulation emulation;
  private Model model;

  /** Reads the job's settings and data set from {@code files}. */
  GradientTask(WorkFiles files, GpuEmulation emulation) throws BadInputException, IOException {
    this.files = files;
    this.config = files.config();
    this.data = files.data(config);
    this.emulation = emulation;
  }

  /** Computes and writes the gradient of the task {@code e} names. */
  Result run(JobEnv e) throws BadInputException, IOException, InterruptedException {
    if (model == null || model.round() != e.round()) {
      model = files.model(e.round(), config); // a model file never changes once written
    }
    Model m = model;
    int[] batch = SoftmaxRegression.batch(e.round(), e.taskIndex(), e.tasksPerRound(),
        config.batchSize(), config.examples());
    long start = System.nanoTime();
    Gradient g = emulation.run(e.gpuType(),
        () -> SoftmaxRegression.gradient(m, data, batch, e.taskIndex(), e.tasksPerRound()));
    long ms = (System.nanoTime() - start) / 1_000_000;
    String name = WorkFiles.gradient(e.round(), e.taskIndex());
    files.write(name, g.encode());
    return new Result(files.where(name), g.batchLoss(), emulation.repeats(e.gpuType()), ms);
  }

  /** The log line of a task's result. */
  static String describe(JobEnv e, Result r) {
    return String.format("%s on GPU type '%s' device '%s': wrote %s (batch loss %s; %d"
        + " computation(s), %d ms)", e.label(), e.gpuType(), e.gpuDevice(), r.where(),
        r.batchLoss(), r.computations(), r.ms());
  }
}
