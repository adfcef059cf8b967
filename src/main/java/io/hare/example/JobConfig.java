package io.hare.example;

import io.hare.core.BadInputException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The fixed settings of one example training job, written by {@code init} to
 * {@value WorkFiles#CONFIG} in the work directory and read by every task, sync step and the
 * reference, so the AM passes nothing but the environment contract.
 *
 * @param seed the seed of the synthetic data set
 * @param features input dimension F
 * @param classes number of classes C (at least 2)
 * @param examples data set size N
 * @param batchSize mini-batch size B of one task
 * @param learningRate SGD step size applied to the averaged gradient
 */
public record JobConfig(long seed, int features, int classes, int examples, int batchSize,
    double learningRate) {

  public JobConfig {
    if (features < 1 || classes < 2 || examples < 1 || batchSize < 1 || batchSize > examples
        || !(learningRate > 0) || Double.isInfinite(learningRate)) {
      throw new IllegalArgumentException("bad job config: features=" + features + " (>= 1), "
          + "classes=" + classes + " (>= 2), examples=" + examples + " (>= 1), batch-size="
          + batchSize + " (1..examples), learning-rate=" + learningRate + " (> 0)");
    }
  }

  /**
   * The {@code key=value} text stored in the work directory, in a fixed order, so the same
   * settings always give the same bytes ({@code init} compares them to refuse a change).
   */
  public byte[] encode() {
    // Hex keeps the exact double: the rate must be bit-identical wherever it is read.
    String text = "# Hare example SGD job (io.hare.example.SgdJob init)\n"
        + "seed=" + seed + "\n"
        + "features=" + features + "\n"
        + "classes=" + classes + "\n"
        + "examples=" + examples + "\n"
        + "batch-size=" + batchSize + "\n"
        + "learning-rate=" + Double.toHexString(learningRate) + "\n";
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Parses what {@link #encode} wrote; {@code name} names the file in messages. */
  public static JobConfig decode(byte[] bytes, String name) throws BadInputException {
    Properties p = new Properties();
    try {
      p.load(new StringReader(new String(bytes, StandardCharsets.ISO_8859_1)));
      return new JobConfig(Long.parseLong(get(p, "seed", name)),
          Integer.parseInt(get(p, "features", name)), Integer.parseInt(get(p, "classes", name)),
          Integer.parseInt(get(p, "examples", name)),
          Integer.parseInt(get(p, "batch-size", name)),
          Double.parseDouble(get(p, "learning-rate", name)));
    } catch (IOException | IllegalArgumentException e) {
      throw new BadInputException(name + ": not a job config written by 'init': "
          + e.getMessage());
    }
  }

  private static String get(Properties p, String key, String name) throws BadInputException {
    String v = p.getProperty(key);
    if (v == null) {
      throw new BadInputException(name + ": key '" + key + "' missing");
    }
    return v.strip();
  }

  /** Length of one model or gradient vector: a weight per (class, feature) plus a bias. */
  public int parameters() {
    return classes * (features + 1);
  }
}
