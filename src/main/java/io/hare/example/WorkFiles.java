package io.hare.example;

import io.hare.core.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;

/**
 * The files of one example job in its work directory, and typed access to them.
 *
 * <pre>
 * job.properties       the job's settings ({@link JobConfig}), written by init
 * data.bin             the data set ({@link Dataset}), written by init
 * model-r&lt;r&gt;           the model after r rounds ({@link Model}); init writes model-r0,
 *                      the sync step of round r writes model-r&lt;r+1&gt;
 * grad-r&lt;r&gt;-t&lt;i&gt;       task i's gradient in round r ({@link Gradient})
 * loss.tsv             one line per synced round: round, mean batch loss of model r,
 *                      loss of model r+1 on the whole data set
 * </pre>
 *
 * Nothing is ever deleted: a re-run task or sync step (an AM retry or a resumed AM attempt)
 * finds every input it had the first time, and rewrites its output with the same bytes. Clean
 * up the work directory when the job is over.
 */
public final class WorkFiles {

  public static final String CONFIG = "job.properties";
  public static final String DATA = "data.bin";
  public static final String LOSS_LOG = "loss.tsv";
  static final String LOSS_HEADER = "round\tbatch-loss\tloss-after\n";

  private final WorkStore store;

  public WorkFiles(WorkStore store) {
    this.store = store;
  }

  public static String model(int round) {
    return "model-r" + round;
  }

  public static String gradient(int round, int taskIndex) {
    return "grad-r" + round + "-t" + taskIndex;
  }

  public WorkStore store() {
    return store;
  }

  public JobConfig config() throws BadInputException, IOException {
    return JobConfig.decode(read(CONFIG, "run 'init' first"), where(CONFIG));
  }

  /** The data set, checked to be the one {@code config} describes. */
  public Dataset data(JobConfig config) throws BadInputException, IOException {
    Dataset d = Dataset.decode(read(DATA, "run 'init' first"), where(DATA));
    if (d.size() != config.examples() || d.features() != config.features()
        || d.classes() != config.classes()) {
      throw new BadInputException(where(DATA) + ": holds N=" + d.size() + ", F=" + d.features()
          + ", C=" + d.classes() + "; " + CONFIG + " says N=" + config.examples() + ", F="
          + config.features() + ", C=" + config.classes());
    }
    return d;
  }

  /** Model r, checked to be what {@code config} trains. */
  public Model model(int round, JobConfig config) throws BadInputException, IOException {
    String name = model(round);
    Model m = Model.decode(read(name, round == 0 ? "run 'init' first"
        : "the sync step of round " + (round - 1) + " has not run"), where(name));
    if (m.round() != round || m.classes() != config.classes()
        || m.features() != config.features()) {
      throw new BadInputException(where(name) + ": holds round " + m.round() + " with C="
          + m.classes() + ", F=" + m.features() + "; expected round " + round + " with C="
          + config.classes() + ", F=" + config.features());
    }
    return m;
  }

  public void write(String name, byte[] bytes) throws IOException {
    store.writeAtomically(name, bytes);
  }

  /** The bytes of {@code name}; a missing file is the user's problem, named with a hint. */
  byte[] read(String name, String hint) throws BadInputException, IOException {
    try {
      return store.read(name);
    } catch (NoSuchFileException e) {
      throw new BadInputException(where(name) + ": missing (" + hint + ")");
    }
  }

  /**
   * Records round r's losses: rewrites the log with every earlier round's line kept and round
   * r's line last, so a re-run sync step never duplicates a line (an HDFS file cannot be
   * appended to atomically).
   */
  public void logLoss(int round, double batchLoss, double lossAfter) throws IOException {
    StringBuilder log = new StringBuilder(LOSS_HEADER);
    if (store.exists(LOSS_LOG)) {
      for (String line : new String(store.read(LOSS_LOG), StandardCharsets.UTF_8).split("\n")) {
        String[] cols = line.split("\t");
        if (cols.length == 3 && cols[0].matches("\\d+") && Integer.parseInt(cols[0]) < round) {
          log.append(line).append('\n');
        }
      }
    }
    log.append(lossLine(round, batchLoss, lossAfter));
    store.writeAtomically(LOSS_LOG, log.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** One line of the loss log; the reference prints the same lines. */
  static String lossLine(int round, double batchLoss, double lossAfter) {
    return round + "\t" + batchLoss + "\t" + lossAfter + "\n";
  }

  String where(String name) {
    return store.location() + "/" + name;
  }
}
