package io.hare.sim.workload;

import io.hare.core.ConfigException;
import io.hare.core.policy.PolicyConfig;
import io.hare.sim.SimKeys;
import java.util.Map;

/**
 * The {@code yarn.hare.sim.paper.*} settings of {@link PaperWorkload}, validated. Meaning and
 * defaults: {@link SimKeys} and the Javadoc of {@link PaperWorkload}.
 */
record PaperSettings(double[] categoryMix, int[] scales, int maxWeight, double durationMinS,
    double durationMaxS, double durationShape, double syncShare, int maxRounds,
    double offeredLoad, double arrivalRatePerHour) {

  /**
   * @throws IllegalArgumentException listing every bad setting (key, value, what is allowed)
   */
  static PaperSettings read(Map<String, String> settings) {
    PolicyConfig c = new PolicyConfig(settings, 0);
    double[] mix = SettingLists.shares(c, SimKeys.PAPER_CATEGORY_MIX,
        SimKeys.DEFAULT_PAPER_CATEGORY_MIX, PaperModels.Category.values().length);
    int[] scales = SettingLists.ints(c, SimKeys.PAPER_SCALES, SimKeys.DEFAULT_PAPER_SCALES, 1,
        100_000);
    int maxWeight = c.getInt(SimKeys.PAPER_MAX_WEIGHT, SimKeys.DEFAULT_PAPER_MAX_WEIGHT, 1,
        1_000_000);
    double lo = c.getDouble(SimKeys.PAPER_DURATION_MIN_S, SimKeys.DEFAULT_PAPER_DURATION_MIN_S,
        0.001, 1e9);
    double hi = c.getDouble(SimKeys.PAPER_DURATION_MAX_S, SimKeys.DEFAULT_PAPER_DURATION_MAX_S,
        0.001, 1e9);
    if (lo > hi) {
      c.addProblem(SimKeys.PAPER_DURATION_MIN_S + " (" + lo + ") must not exceed "
          + SimKeys.PAPER_DURATION_MAX_S + " (" + hi + ")");
    }
    double shape = c.getDouble(SimKeys.PAPER_DURATION_SHAPE, SimKeys.DEFAULT_PAPER_DURATION_SHAPE,
        0.01, 100);
    double sync = c.getDouble(SimKeys.PAPER_SYNC_SHARE, SimKeys.DEFAULT_PAPER_SYNC_SHARE, 0, 100);
    int maxRounds = c.getInt(SimKeys.PAPER_MAX_ROUNDS, SimKeys.DEFAULT_PAPER_MAX_ROUNDS, 1,
        10_000_000);
    double load = c.getDouble(SimKeys.PAPER_OFFERED_LOAD, SimKeys.DEFAULT_PAPER_OFFERED_LOAD,
        0.001, 1000);
    double rate = c.getDouble(SimKeys.PAPER_ARRIVAL_RATE_PER_HOUR,
        SimKeys.DEFAULT_PAPER_ARRIVAL_RATE_PER_HOUR, 0, 1e9);
    try {
      c.check();
    } catch (ConfigException e) {
      throw new IllegalArgumentException("paper workload: " + e.getMessage(), e);
    }
    return new PaperSettings(mix, scales, maxWeight, lo, hi, shape, sync, maxRounds, load, rate);
  }
}
