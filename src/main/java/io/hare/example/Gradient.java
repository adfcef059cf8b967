package io.hare.example;

import io.hare.core.BadInputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What one task emits: the mean gradient of the softmax cross-entropy over its mini-batch,
 * taken at the round's model, and the batch's mean loss (for the log). It names its round,
 * task index and k, so the sync step refuses a gradient left over from another run.
 *
 * <p>File format (big-endian, exact): int magic {@code HGRD}, int round, int task index, int k,
 * int C, int F, double batch loss, then C * (F + 1) IEEE doubles.
 *
 * @param values same layout as {@link Model#weights}; not copied: do not modify
 */
public record Gradient(int round, int taskIndex, int tasksPerRound, int classes, int features,
    double batchLoss, double[] values) {

  static final int MAGIC = 0x48475244; // "HGRD"
  static final int HEADER_BYTES = 32;

  public Gradient {
    if (values.length != classes * (features + 1)) {
      throw new IllegalArgumentException(values.length + " values for " + classes
          + " classes of " + features + " features");
    }
  }

  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(HEADER_BYTES + 8 * values.length);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(round);
      out.writeInt(taskIndex);
      out.writeInt(tasksPerRound);
      out.writeInt(classes);
      out.writeInt(features);
      out.writeDouble(batchLoss);
      for (double v : values) {
        out.writeDouble(v);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Reads what {@link #encode} wrote; {@code name} names the file in messages. */
  public static Gradient decode(byte[] bytes, String name) throws BadInputException {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (bytes.length < HEADER_BYTES || in.readInt() != MAGIC) {
        throw new BadInputException(name + ": not a gradient file");
      }
      int round = in.readInt();
      int index = in.readInt();
      int k = in.readInt();
      int c = in.readInt();
      int f = in.readInt();
      double loss = in.readDouble();
      if (c < 2 || f < 1 || bytes.length != HEADER_BYTES + 8L * c * (f + 1)) {
        throw new BadInputException(name + ": corrupt gradient (C=" + c + ", F=" + f + ", "
            + bytes.length + " bytes)");
      }
      double[] v = new double[c * (f + 1)];
      for (int i = 0; i < v.length; i++) {
        v[i] = in.readDouble();
      }
      return new Gradient(round, index, k, c, f, loss, v);
    } catch (IOException e) {
      throw new BadInputException(name + ": truncated gradient", e);
    }
  }
}
