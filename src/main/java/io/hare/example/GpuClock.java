package io.hare.example;

/**
 * The wall clock a paced emulated GPU waits on ({@link GpuEmulation#gpuMs}); tests pass a
 * manual one.
 */
public interface GpuClock {

  /** The system clock; {@link #sleepMs} really sleeps. */
  GpuClock SYSTEM = new GpuClock() {
    @Override
    public long nowMs() {
      return System.nanoTime() / 1_000_000;
    }

    @Override
    public void sleepMs(long ms) throws InterruptedException {
      Thread.sleep(ms);
    }
  };

  /** Monotonic milliseconds. */
  long nowMs();

  void sleepMs(long ms) throws InterruptedException;
}
