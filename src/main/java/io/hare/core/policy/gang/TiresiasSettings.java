package io.hare.core.policy.gang;

import io.hare.core.policy.PolicyConfig;

/** Parses tiresias-las settings that {@link PolicyConfig}'s typed getters do not cover. */
final class TiresiasSettings {

  private TiresiasSettings() {}

  /**
   * The queue thresholds, converted from GPU-seconds to GPU-milliseconds: a comma-separated list
   * of positive, strictly increasing numbers; n thresholds make n+1 queues, none makes a single
   * FIFO queue. A bad list is recorded as a problem and the defaults are used.
   */
  static double[] thresholdsGpuMs(PolicyConfig config) {
    String key = GangKeys.TIRESIAS_QUEUE_THRESHOLDS_GPU_S;
    String text = config.getString(key, GangKeys.DEFAULT_TIRESIAS_QUEUE_THRESHOLDS_GPU_S);
    double[] parsed = parse(text);
    if (parsed == null) {
      config.addProblem(key + ": must be positive, strictly increasing GPU-seconds separated by "
          + "commas (e.g. 3250,7200), got '" + text + "'");
      parsed = parse(GangKeys.DEFAULT_TIRESIAS_QUEUE_THRESHOLDS_GPU_S);
    }
    return parsed;
  }

  private static double[] parse(String text) {
    if (text.isBlank()) {
      return new double[0];
    }
    String[] parts = text.split(",");
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Double.parseDouble(parts[i].trim()) * 1000.0;
      } catch (NumberFormatException e) {
        return null;
      }
      if (!(out[i] > 0) || Double.isInfinite(out[i]) || (i > 0 && out[i] <= out[i - 1])) {
        return null;
      }
    }
    return out;
  }
}
