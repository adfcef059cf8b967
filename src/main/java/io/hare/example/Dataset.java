package io.hare.example;

import io.hare.core.BadInputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;

/**
 * A synthetic classification data set: Gaussian blobs, one per class. Class centres are drawn
 * with spread {@value #CENTRE_SPREAD} per feature, examples with unit variance around their
 * centre; labels go round-robin so every class is equally frequent. Generation uses only
 * {@link Random} (whose algorithm Java specifies), so the same seed gives the same data on any
 * JVM; it is stored anyway, so tasks read it rather than regenerate it.
 *
 * <p>File format (big-endian): int magic {@code HDAT}, int N, int F, int C, then per example int
 * label followed by F IEEE doubles.
 *
 * @param x N rows of F features (not copied: do not modify)
 * @param y N labels in 0..C-1
 */
public record Dataset(int classes, double[][] x, int[] y) {

  static final int MAGIC = 0x48444154; // "HDAT"
  static final double CENTRE_SPREAD = 1.0;

  public int size() {
    return y.length;
  }

  public int features() {
    return x.length == 0 ? 0 : x[0].length;
  }

  /** The data set of {@code config}: the same for the same seed and sizes. */
  public static Dataset generate(JobConfig config) {
    Random rnd = new Random(config.seed());
    int f = config.features();
    double[][] centres = new double[config.classes()][f];
    for (double[] c : centres) {
      for (int j = 0; j < f; j++) {
        c[j] = CENTRE_SPREAD * rnd.nextGaussian();
      }
    }
    double[][] x = new double[config.examples()][f];
    int[] y = new int[config.examples()];
    for (int n = 0; n < x.length; n++) {
      y[n] = n % config.classes();
      for (int j = 0; j < f; j++) {
        x[n][j] = centres[y[n]][j] + rnd.nextGaussian();
      }
    }
    return new Dataset(config.classes(), x, y);
  }

  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(size());
      out.writeInt(features());
      out.writeInt(classes);
      for (int n = 0; n < size(); n++) {
        out.writeInt(y[n]);
        for (double v : x[n]) {
          out.writeDouble(v);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Reads what {@link #encode} wrote; {@code name} names the file in messages. */
  public static Dataset decode(byte[] bytes, String name) throws BadInputException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (bytes.length < 16 || in.readInt() != MAGIC) {
        throw new BadInputException(name + ": not a data set written by 'init'");
      }
      int n = in.readInt();
      int f = in.readInt();
      int c = in.readInt();
      if (n < 0 || f < 1 || c < 2 || bytes.length != 16 + (long) n * (4 + 8L * f)) {
        throw new BadInputException(name + ": corrupt data set (N=" + n + ", F=" + f + ", C=" + c
            + ", " + bytes.length + " bytes)");
      }
      double[][] x = new double[n][f];
      int[] y = new int[n];
      for (int i = 0; i < n; i++) {
        y[i] = in.readInt();
        if (y[i] < 0 || y[i] >= c) {
          throw new BadInputException(name + ": example " + i + " has label " + y[i]
              + ", outside 0.." + (c - 1));
        }
        for (int j = 0; j < f; j++) {
          x[i][j] = in.readDouble();
        }
      }
      return new Dataset(c, x, y);
    } catch (IOException e) {
      throw new BadInputException(name + ": truncated data set", e);
    }
  }
}
