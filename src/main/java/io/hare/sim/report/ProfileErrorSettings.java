package io.hare.sim.report;

import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import io.hare.sim.ProfileError;
import io.hare.sim.SimKeys;
import java.util.Map;

/**
 * The {@code yarn.hare.sim.profile-*} settings: how wrong the profiles the policies are told
 * are, with the scheduler's own estimator settings ({@code yarn.scheduler.hare.profiles.*}).
 */
public final class ProfileErrorSettings {

  private ProfileErrorSettings() {}

  /**
   * @param seed draws the per-(job, type) factors
   * @throws ConfigException naming every bad key and value
   */
  public static ProfileError read(Map<String, String> settings, long seed)
      throws ConfigException {
    PolicyConfig c = new PolicyConfig(settings, 0);
    double sigma = c.getDouble(SimKeys.PROFILE_NOISE, SimKeys.DEFAULT_PROFILE_NOISE, 0, 3);
    double bias = c.getDouble(SimKeys.PROFILE_BIAS, SimKeys.DEFAULT_PROFILE_BIAS, 0.01, 100);
    double priorWeight = c.getDouble(SchedulerKeys.PROFILES_PRIOR_WEIGHT,
        SchedulerKeys.DEFAULT_PROFILES_PRIOR_WEIGHT, 0, 1000);
    int window = c.getInt(SchedulerKeys.PROFILES_WINDOW, SchedulerKeys.DEFAULT_PROFILES_WINDOW, 1,
        100_000);
    c.check();
    return new ProfileError(sigma, bias, seed, priorWeight, window);
  }
}
