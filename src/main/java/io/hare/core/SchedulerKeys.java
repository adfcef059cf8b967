package io.hare.core;

/**
 * Every {@code yarn.scheduler.hare.*} key with its {@code DEFAULT_} twin. The ResourceManager
 * plugin reads them from yarn-site.xml; the simulator reads the same keys (as {@code -D}
 * options), so one policy configuration drives both. Each key is documented in
 * {@code hare-default.xml}; {@code SchedulerKeysTest} keeps the two in sync.
 */
public final class SchedulerKeys {

  private SchedulerKeys() {}

  public static final String PREFIX = "yarn.scheduler.hare.";

  /** Policy by short name (hare, hlas, ...) or fully qualified class name. */
  public static final String POLICY = PREFIX + "policy";
  public static final String DEFAULT_POLICY = "hare";

  /** Seed for the policy's tie breaking. */
  public static final String SEED = PREFIX + "seed";
  public static final long DEFAULT_SEED = 0L;

  // --- hare (Algorithm 1 and our extensions) ---

  // --- hlas ---

  // --- baselines ---
}
