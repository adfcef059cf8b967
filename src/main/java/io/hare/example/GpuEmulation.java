package io.hare.example;

import io.hare.core.BadInputException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Demo-only emulation of GPU speed on CPU nodes, and the ONLY emulation in the example job; off
 * by default. With {@code --type-factors v100=1,t4=2.2,k80=6.9} a task on a node whose
 * {@code HARE_GPU_TYPE} is {@code k80} computes its gradient {@code round(6.9 * base)} times
 * instead of {@code base} times ({@code --base-repeats}, default 1), so slower types really
 * take longer in a demo cluster without GPUs. Every repeat is the same computation on the same
 * inputs; the first result is kept and each repeat is checked to be identical, so emulation
 * can never change the trained model. A type not in the list (or none) gets factor 1.
 *
 * @param factors slowdown factor per lower-case GPU type, each at least 1
 * @param baseRepeats gradient computations of a task at factor 1
 */
public record GpuEmulation(Map<String, Double> factors, int baseRepeats) {

  /** No emulation: one computation per task. */
  public static final GpuEmulation OFF = new GpuEmulation(Map.of(), 1);

  public GpuEmulation {
    factors = Map.copyOf(factors);
    if (baseRepeats < 1) {
      throw new IllegalArgumentException("baseRepeats must be >= 1, got " + baseRepeats);
    }
  }

  /**
   * Parses {@code TYPE=FACTOR,...} ({@code flag} names the option in messages); null or empty
   * means no factors.
   */
  public static GpuEmulation parse(String spec, int baseRepeats, String flag)
      throws BadInputException {
    if (baseRepeats < 1) {
      throw new BadInputException("--base-repeats: must be >= 1, got " + baseRepeats);
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
    return new GpuEmulation(factors, baseRepeats);
  }

  public double factor(String gpuType) {
    return factors.getOrDefault(gpuType.toLowerCase(Locale.ROOT), 1.0);
  }

  /** How many times a task on {@code gpuType} computes its gradient. */
  public long repeats(String gpuType) {
    return Math.max(1, Math.round(factor(gpuType) * baseRepeats));
  }

  /** Runs {@code work} {@link #repeats} times; returns the first result. */
  public Gradient run(String gpuType, Supplier<Gradient> work) {
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
