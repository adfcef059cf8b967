package io.hare.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;

import io.hare.core.BadInputException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/** The demo-only slowdown: repeats the same computation, never changes the result. */
public class GpuEmulationTest {

  private static Gradient zero(double v) {
    return new Gradient(0, 0, 1, 2, 1, 0, new double[] {v, 0, 0, 0});
  }

  @Test(timeout = 60_000)
  public void factorTimesBaseRepeats() throws Exception {
    GpuEmulation e = GpuEmulation.parse("V100=1, t4=2.2,k80=6.9", 10, "--type-factors");
    assertEquals(10, e.repeats("v100"));
    assertEquals(22, e.repeats("T4")); // types match case-insensitively
    assertEquals(69, e.repeats("k80"));
    assertEquals(10, e.repeats("a100")); // not listed: factor 1
    assertEquals(10, e.repeats(""));
    assertEquals(7, GpuEmulation.parse("k80=6.9", 1, "f").repeats("k80"));
  }

  @Test(timeout = 60_000)
  public void offByDefault() throws Exception {
    assertEquals(1, GpuEmulation.parse(null, 1, "f").repeats("k80"));
    assertEquals(1, GpuEmulation.OFF.repeats("k80"));
  }

  @Test(timeout = 60_000)
  public void runsTheWorkThatOftenAndKeepsTheFirstResult() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    Gradient first = zero(1);
    Gradient g = GpuEmulation.parse("t4=3", 1, "f").run("t4", () -> {
      return calls.getAndIncrement() == 0 ? first : zero(1);
    });
    assertSame(first, g);
    assertEquals(3, calls.get());
  }

  @Test(timeout = 60_000)
  public void aRepeatThatDiffersIsABug() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    GpuEmulation e = GpuEmulation.parse("t4=2", 1, "f");
    assertThrows(IllegalStateException.class,
        () -> e.run("t4", () -> zero(calls.getAndIncrement())));
  }

  /** A clock that only moves when the work or the wait moves it. */
  private static final class ManualClock implements GpuClock {
    long now = 1_000;
    long slept = -1;

    @Override
    public long nowMs() {
      return now;
    }

    @Override
    public void sleepMs(long ms) {
      slept = ms;
      now += ms;
    }
  }

  @Test(timeout = 60_000)
  public void aPacedTaskComputesOnceAndHoldsItsGpuForFactorTimesGpuMs() throws Exception {
    GpuEmulation e = GpuEmulation.parse("t4=2.5", 1, 400, "f");
    ManualClock clock = new ManualClock();
    AtomicInteger calls = new AtomicInteger();
    e.run("t4", () -> {
      calls.incrementAndGet();
      clock.now += 300; // the real computation
      return zero(1);
    }, clock);
    assertEquals("the factor paces, it does not repeat", 1, calls.get());
    assertEquals(1000 - 300, clock.slept);
    assertEquals(1_000 + 1000, clock.now);
  }

  @Test(timeout = 60_000)
  public void aPacedTaskSlowerThanItsGpuDoesNotWait() throws Exception {
    ManualClock clock = new ManualClock();
    GpuEmulation.parse(null, 1, 100, "f").run("v100", () -> {
      clock.now += 250;
      return zero(1);
    }, clock);
    assertEquals("no wait", -1, clock.slept);
  }

  @Test(timeout = 60_000)
  public void unpacedTasksNeverWait() throws Exception {
    ManualClock clock = new ManualClock();
    GpuEmulation.parse("t4=2", 1, "f").run("t4", () -> zero(1), clock);
    assertEquals(-1, clock.slept);
  }

  @Test(timeout = 60_000)
  public void badSpecsAreRefused() {
    for (String bad : new String[] {"t4", "t4=", "=2", "t4=x", "t4=0.9", "t4=Infinity",
        "t4=NaN", "t4=2=3"}) {
      assertThrows(bad, BadInputException.class, () -> GpuEmulation.parse(bad, 1, "f"));
    }
    assertThrows(BadInputException.class, () -> GpuEmulation.parse("t4=2", 0, "f"));
    assertThrows(BadInputException.class, () -> GpuEmulation.parse("t4=2", 1, -1, "f"));
    assertThrows(BadInputException.class,
        () -> GpuEmulation.parse("t4=2", 1, GpuEmulation.MAX_GPU_MS + 1, "f"));
  }
}
