package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import java.util.Map;
import java.util.TreeMap;

/**
 * The admin's caps on job weights: {@code yarn.scheduler.hare.weight.max} for everyone,
 * overridden per queue by {@code weight.max.queue.<queue>} and per user by
 * {@code weight.max.user.<user>}. The most specific cap applies: user, then queue, then the
 * default; an override may be higher or lower than the default (a trusted team may get more).
 * A declared weight above the cap is clamped to it. Immutable.
 *
 * @param defaultMax the cap when no override applies
 * @param users caps by user name
 * @param queues caps by queue name as YARN records it (with Hare's one queue: "default")
 */
record WeightCaps(double defaultMax, Map<String, Double> users, Map<String, Double> queues) {

  /** The bounds every cap must lie in (finite, a weight of 1 always allowed). */
  static final double MIN = 1;
  static final double MAX = 1e6;

  WeightCaps {
    users = Map.copyOf(users);
    queues = Map.copyOf(queues);
  }

  /** Reads the overrides from {@code values}; bad ones are recorded as problems in {@code t}. */
  static WeightCaps read(double defaultMax, Map<String, String> values, PolicyConfig t) {
    return new WeightCaps(defaultMax, overrides(SchedulerKeys.WEIGHT_MAX_USER_PREFIX, values, t),
        overrides(SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX, values, t));
  }

  private static Map<String, Double> overrides(String prefix, Map<String, String> values,
      PolicyConfig t) {
    Map<String, Double> out = new TreeMap<>();
    for (String key : new TreeMap<>(values).keySet()) {
      if (!key.startsWith(prefix)) {
        continue;
      }
      String name = key.substring(prefix.length()).trim();
      if (name.isEmpty()) {
        t.addProblem(key + ": names no " + (prefix.endsWith("user.") ? "user" : "queue")
            + "; write " + prefix + "NAME");
        continue;
      }
      double cap = t.getDouble(key, Double.NaN, MIN, MAX);
      if (!Double.isNaN(cap)) {
        out.put(name, cap);
      }
    }
    return out;
  }

  /** The cap for an application of {@code user} submitted to {@code queue}. */
  Cap capFor(String user, String queue) {
    Double u = user == null ? null : users.get(user);
    if (u != null) {
      return new Cap(u, SchedulerKeys.WEIGHT_MAX_USER_PREFIX + user);
    }
    Double q = queue == null ? null : queues.get(queue);
    if (q != null) {
      return new Cap(q, SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + queue);
    }
    return new Cap(defaultMax, SchedulerKeys.WEIGHT_MAX);
  }

  /** A cap and the key it comes from, for the log line that reports a clamp. */
  record Cap(double max, String key) {}
}
