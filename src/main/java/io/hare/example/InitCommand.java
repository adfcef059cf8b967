package io.hare.example;

import io.hare.core.BadInputException;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code init}: writes the job's settings, its data set and model round 0 into a work
 * directory. Running it again with the same settings rewrites the same bytes; with other
 * settings on an initialised directory it refuses, as a running job's data must not change.
 */
@Command(name = "init", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Creates the data set and model round 0 of an example job in a work directory.")
final class InitCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--work-dir", required = true, paramLabel = "DIR",
      description = "The job's work directory (local path or a Hadoop URI, e.g. hdfs://...); "
          + "pass the same as HARE_WORK_DIR.")
  String workDir;

  @Option(names = "--seed", defaultValue = "1", description = "Data set seed (${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--features", defaultValue = "8",
      description = "Features per example (${DEFAULT-VALUE}).")
  int features;

  @Option(names = "--classes", defaultValue = "4", description = "Classes (${DEFAULT-VALUE}).")
  int classes;

  @Option(names = "--examples", defaultValue = "2048",
      description = "Examples in the data set (${DEFAULT-VALUE}).")
  int examples;

  @Option(names = "--batch-size", defaultValue = "32",
      description = "Mini-batch size of one task (${DEFAULT-VALUE}).")
  int batchSize;

  @Option(names = "--learning-rate", defaultValue = "0.5",
      description = "SGD step size (${DEFAULT-VALUE}).")
  double learningRate;

  @Override
  public Integer call() throws Exception {
    JobConfig config;
    try {
      config = new JobConfig(seed, features, classes, examples, batchSize, learningRate);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage());
    }
    WorkStore store = WorkStore.open(workDir);
    store.create();
    WorkFiles files = new WorkFiles(store);
    byte[] settings = config.encode();
    if (store.exists(WorkFiles.CONFIG)
        && !Arrays.equals(store.read(WorkFiles.CONFIG), settings)) {
      throw new BadInputException(files.where(WorkFiles.CONFIG) + ": already initialised with "
          + "other settings; use a fresh --work-dir");
    }
    Dataset data = Dataset.generate(config);
    Model m0 = Model.zeros(config);
    files.write(WorkFiles.DATA, data.encode());
    files.write(WorkFiles.model(0), m0.encode());
    files.write(WorkFiles.CONFIG, settings); // last: a directory with it is complete
    spec.commandLine().getOut().printf("initialised %s: %d examples, %d features, %d classes, "
        + "loss of model-r0 %s%n", store.location(), examples, features, classes,
        SoftmaxRegression.loss(m0, data));
    spec.commandLine().getOut().flush();
    return SgdJob.OK;
  }
}
