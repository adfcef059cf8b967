package io.hare.example;

import io.hare.core.BadInputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The softmax-regression model after {@code round} rounds: for each class c a weight per
 * feature and a bias, stored row by row ({@code weights[c * (F + 1) + f]}, the bias at
 * {@code f = F}).
 *
 * <p>File format (big-endian, exact: two equal models are equal byte for byte): int magic
 * {@code HMDL}, int round, int C, int F, then C * (F + 1) IEEE doubles.
 *
 * @param weights not copied: do not modify
 */
public record Model(int round, int classes, int features, double[] weights) {

  static final int MAGIC = 0x484d444c; // "HMDL"
  static final int HEADER_BYTES = 16;

  public Model {
    if (weights.length != classes * (features + 1)) {
      throw new IllegalArgumentException(weights.length + " weights for " + classes
          + " classes of " + features + " features");
    }
  }

  /** The all-zero model of round 0 (its loss is exactly ln C). */
  public static Model zeros(JobConfig c) {
    return new Model(0, c.classes(), c.features(), new double[c.parameters()]);
  }

  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(HEADER_BYTES + 8 * weights.length);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(round);
      out.writeInt(classes);
      out.writeInt(features);
      for (double w : weights) {
        out.writeDouble(w);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Reads what {@link #encode} wrote; {@code name} names the file in messages. */
  public static Model decode(byte[] bytes, String name) throws BadInputException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (bytes.length < HEADER_BYTES || in.readInt() != MAGIC) {
        throw new BadInputException(name + ": not a model file");
      }
      int round = in.readInt();
      int c = in.readInt();
      int f = in.readInt();
      if (round < 0 || c < 2 || f < 1
          || bytes.length != HEADER_BYTES + 8L * c * (f + 1)) {
        throw new BadInputException(name + ": corrupt model (round " + round + ", C=" + c
            + ", F=" + f + ", " + bytes.length + " bytes)");
      }
      double[] w = new double[c * (f + 1)];
      for (int i = 0; i < w.length; i++) {
        w[i] = in.readDouble();
      }
      return new Model(round, c, f, w);
    } catch (IOException e) {
      throw new BadInputException(name + ": truncated model", e);
    }
  }
}
