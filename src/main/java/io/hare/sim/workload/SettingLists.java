package io.hare.sim.workload;

import io.hare.core.policy.PolicyConfig;

/** Comma-separated list settings, read through a {@link PolicyConfig} that collects problems. */
final class SettingLists {

  private SettingLists() {}

  /** {@code n} numbers &gt;= 0 with a positive sum; records a problem and returns def if not. */
  static double[] shares(PolicyConfig cfg, String key, String def, int n) {
    String v = cfg.getString(key, def);
    String[] parts = v.split(",", -1);
    double[] out = new double[n];
    boolean ok = parts.length == n;
    double sum = 0;
    for (int i = 0; ok && i < n; i++) {
      try {
        out[i] = Double.parseDouble(parts[i].trim());
        ok = Double.isFinite(out[i]) && out[i] >= 0;
        sum += out[i];
      } catch (NumberFormatException e) {
        ok = false;
      }
    }
    if (!ok || !(sum > 0)) {
      cfg.addProblem(key + ": must be " + n + " comma-separated numbers >= 0, not all 0, got '"
          + v + "'");
      return shares(PolicyConfig.defaults(), key, def, n);
    }
    return out;
  }

  /** Integers in [min, max], at least one; records a problem and returns def if not. */
  static int[] ints(PolicyConfig cfg, String key, String def, int min, int max) {
    String v = cfg.getString(key, def);
    String[] parts = v.split(",", -1);
    int[] out = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        out[i] = Integer.parseInt(parts[i].trim());
        if (out[i] < min || out[i] > max) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        cfg.addProblem(key + ": must be comma-separated integers in [" + min + ", " + max
            + "], got '" + v + "'");
        return ints(PolicyConfig.defaults(), key, def, min, max);
      }
    }
    return out;
  }
}
