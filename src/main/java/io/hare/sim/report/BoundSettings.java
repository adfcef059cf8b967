package io.hare.sim.report;

import io.hare.core.ConfigException;
import io.hare.core.plan.RelaxationBound;
import io.hare.core.policy.PolicyConfig;
import io.hare.sim.SimKeys;
import java.util.Map;

/** The {@code yarn.hare.sim.bound.*} settings: how hard {@code hare simulate} tries for its bound. */
public final class BoundSettings {

  private BoundSettings() {}

  /** @throws ConfigException naming every bad key and value */
  public static RelaxationBound.Options read(Map<String, String> settings)
      throws ConfigException {
    PolicyConfig c = new PolicyConfig(settings, 0);
    double resolution = c.getDouble(SimKeys.BOUND_RESOLUTION, SimKeys.DEFAULT_BOUND_RESOLUTION,
        1e-4, 100);
    int maxVariables = c.getInt(SimKeys.BOUND_MAX_LP_VARIABLES,
        SimKeys.DEFAULT_BOUND_MAX_LP_VARIABLES, 1, Integer.MAX_VALUE);
    int maxJobs = c.getInt(SimKeys.BOUND_MAX_LP_JOBS, SimKeys.DEFAULT_BOUND_MAX_LP_JOBS, 0,
        Integer.MAX_VALUE);
    long limit = c.getLong(SimKeys.BOUND_TIME_LIMIT_MS, SimKeys.DEFAULT_BOUND_TIME_LIMIT_MS, 0,
        Long.MAX_VALUE);
    c.check();
    return new RelaxationBound.Options(resolution, maxVariables, maxJobs, limit);
  }
}
