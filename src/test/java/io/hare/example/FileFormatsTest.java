package io.hare.example;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.hare.core.BadInputException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.Test;

/** The work-directory files: exact doubles, a self-describing header, corrupt files named. */
public class FileFormatsTest {

  @Test(timeout = 60_000)
  public void modelIsExactBigEndianDoubles() throws Exception {
    double[] w = {0.1, -0.0, Double.MIN_VALUE, 1e300, 5, 6};
    byte[] bytes = new Model(7, 2, 2, w).encode();
    assertEquals(16 + 6 * 8, bytes.length);
    ByteBuffer b = ByteBuffer.wrap(bytes);
    assertEquals(Model.MAGIC, b.getInt());
    assertEquals(7, b.getInt());
    assertEquals(2, b.getInt());
    assertEquals(2, b.getInt());
    assertEquals(Double.doubleToRawLongBits(0.1), b.getLong());
    assertEquals(Double.doubleToRawLongBits(-0.0), b.getLong()); // the sign of zero survives
    Model back = Model.decode(bytes, "m");
    assertArrayEquals(bytes, back.encode());
    assertEquals(7, back.round());
  }

  @Test(timeout = 60_000)
  public void gradientRoundTrips() throws Exception {
    Gradient g = new Gradient(3, 1, 4, 2, 1, 0.25, new double[] {1, 2, 3, 4});
    Gradient back = Gradient.decode(g.encode(), "g");
    assertEquals(3, back.round());
    assertEquals(1, back.taskIndex());
    assertEquals(4, back.tasksPerRound());
    assertEquals(0.25, back.batchLoss(), 0);
    assertArrayEquals(g.values(), back.values(), 0);
  }

  @Test(timeout = 60_000)
  public void configKeepsTheExactRate() throws Exception {
    JobConfig c = new JobConfig(-9, 3, 5, 100, 7, 0.1);
    assertEquals(c, JobConfig.decode(c.encode(), "job.properties"));
    assertTrue(new String(c.encode(), "ISO-8859-1").contains("learning-rate=0x1.999999999999ap-4"));
  }

  @Test(timeout = 60_000)
  public void corruptFilesAreNamed() {
    byte[] model = new Model(0, 2, 1, new double[4]).encode();
    byte[] truncated = Arrays.copyOf(model, model.length - 1);
    assertTrue(assertThrows(BadInputException.class, () -> Model.decode(truncated, "dir/model-r0"))
        .getMessage().startsWith("dir/model-r0: corrupt model"));
    byte[] grad = new Gradient(0, 0, 1, 2, 1, 0, new double[4]).encode();
    assertTrue(assertThrows(BadInputException.class, () -> Model.decode(grad, "dir/model-r1"))
        .getMessage().startsWith("dir/model-r1: not a model file"));
    assertTrue(assertThrows(BadInputException.class, () -> Gradient.decode(model, "g"))
        .getMessage().startsWith("g: not a gradient file"));
    assertTrue(assertThrows(BadInputException.class,
        () -> Dataset.decode(new byte[3], "d")).getMessage().startsWith("d: not a data set"));
    assertTrue(assertThrows(BadInputException.class,
        () -> JobConfig.decode("seed=1\n".getBytes(), "c")).getMessage().contains("features"));
  }
}
