package io.hare.example;

import io.hare.core.BadInputException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Demo-only emulation of GPU speed on CPU nodes, and the ONLY emulation in the example job; off
 * by default. A type not in the factor list (or none) gets factor 1. Two ways:
 *
 * <ul>
 *   <li>CPU work ({@code gpuMs == 0}): with {@code --type-factors v100=1,t4=2.2,k80=6.9} a task
 *       on a node whose {@code HARE_GPU_TYPE} is {@code k80} computes its gradient
 *       {@code round(6.9 * base)} times instead of {@code base} times ({@code --base-repeats},
 *       default 1), so slower types really take longer in a demo cluster without GPUs.
 *   <li>Paced ({@code --gpu-ms MS}): the task computes its gradient {@code base} times on any
 *       type, then holds its GPU until {@code factor x MS} have passed since it began, the wait
 *       a training step has on its device. Real GPUs do not share the host's cores; emulated
 *       ones made of CPU work do, so with several of them on two cores their speed follows the
 *       host's load and not their type. Pacing keeps each type's speed what the factor says.
 * </ul>
 *
 * <p>Every repeat is the same computation on the same inputs; the first result is kept and
 * each repeat is checked to be identical, so emulation can never change the trained model.
 *
 * @param factors slowdown factor per lower-case GPU type, each at least 1
 * @param baseRepeats gradient computations of a task at factor 1
 * @param gpuMs a paced task's time at factor 1, ms; 0 for CPU-work emulation
 */
public record GpuEmulation(Map<String, Double> factors, int baseRepeats, long gpuMs) {

  /** No emulation: one computation per task. */
  public static final GpuEmulation OFF = new GpuEmulation(Map.of(), 1, 0);

  /** The most a paced task may take at factor 1: ten minutes. */
  public static final long MAX_GPU_MS = 600_000;

  public GpuEmulation {
    factors = Map.copyOf(factors);
    if (baseRepeats < 1) {
      throw new IllegalArgumentException("baseRepeats must be >= 1, got " + baseRepeats);
    }
    if (gpuMs < 0 || gpuMs > MAX_GPU_MS) {
      throw new IllegalArgumentException("gpuMs must be in [0, " + MAX_GPU_MS + "], got "
          + gpuMs);
    }
  }

  /** CPU-work emulation: {@code --type-factors} with {@code --base-repeats}. */
  public static GpuEmulation parse(String spec, int baseRepeats, String flag)
      throws BadInputException {
    return parse(spec, baseRepeats, 0, flag);
  }

  /**
   * Parses {@code TYPE=FACTOR,...} ({@code flag} names the option in messages); null or empty
   * means no factors. {@code gpuMs} > 0 paces the tasks ({@code --gpu-ms}).
   */
  public static GpuEmulation parse(String spec, int baseRepeats, long gpuMs, String flag)
      throws BadInputException {
    if (baseRepeats < 1) {
      throw new BadInputException("--base-repeats: must be >= 1, got " + baseRepeats);
    }
    if (gpuMs < 0 || gpuMs > MAX_GPU_MS) {
      throw new BadInputException("--gpu-ms: must be from 0 (off) to " + MAX_GPU_MS
          + ", got " + gpuMs);
    }
    Map<String, Double> factors = new LinkedHashMap<>();
    if (spec != null && !spec.isBlank()) {
      for (String item : spec.split(",")) {
        String[] kv = item.split("=", -1);
        double f = Double.NaN;
        if (kv.length == 2 && !kv[0].isBlank()) {
          try {
            f = Double.parseDouble(kv[1].strip());
          } catch (NumberFormatException e) {
            // reported below
          }
        }
        if (!(f >= 1) || Double.isInfinite(f)) {
          throw new BadInputException(flag + ": '" + item.strip() + "' is not TYPE=FACTOR with "
              + "a finite FACTOR >= 1 (e.g. v100=1,t4=2.2,k80=6.9)");
        }
        factors.put(kv[0].strip().toLowerCase(Locale.ROOT), f);
      }
    }
    return new GpuEmulation(factors, baseRepeats, gpuMs);
  }

  public double factor(String gpuType) {
    return factors.getOrDefault(gpuType.toLowerCase(Locale.ROOT), 1.0);
  }

  public boolean paced() {
    return gpuMs > 0;
  }

  /** How many times a task on {@code gpuType} computes its gradient. */
  public long repeats(String gpuType) {
    return paced() ? baseRepeats : Math.max(1, Math.round(factor(gpuType) * baseRepeats));
  }

  /** How long a paced task on {@code gpuType} holds its GPU at least, ms (0 if not paced). */
  public long heldMs(String gpuType) {
    return Math.round(factor(gpuType) * gpuMs);
  }

  /** {@link #run(String, Supplier, GpuClock)} on the system clock. */
  public Gradient run(String gpuType, Supplier<Gradient> work) throws InterruptedException {
    return run(gpuType, work, GpuClock.SYSTEM);
  }

  /**
   * Runs {@code work} {@link #repeats} times, then, if paced, waits on {@code clock} until
   * {@link #heldMs} have passed since it began; returns the first result.
   */
  public Gradient run(String gpuType, Supplier<Gradient> work, GpuClock clock)
      throws InterruptedException {
    long start = clock.nowMs();
    Gradient first = compute(gpuType, work);
    long left = start + heldMs(gpuType) - clock.nowMs();
    if (left > 0) {
      clock.sleepMs(left);
    }
    return first;
  }

  private Gradient compute(String gpuType, Supplier<Gradient> work) {
    Gradient first = work.get();
    for (long i = 1; i < repeats(gpuType); i++) {
      Gradient again = work.get();
      if (!Arrays.equals(first.values(), again.values())) {
        throw new IllegalStateException("a repeated gradient computation differs");
      }
    }
    return first;
  }
}
