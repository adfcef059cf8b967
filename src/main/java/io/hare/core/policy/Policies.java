package io.hare.core.policy;

import io.hare.core.ConfigException;
import io.hare.core.KeyHints;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.blind.SchedHomoPolicy;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.core.policy.gang.AlloxPolicy;
import io.hare.core.policy.gang.GangKeys;
import io.hare.core.policy.gang.GavelFifoPolicy;
import io.hare.core.policy.gang.SrtfPolicy;
import io.hare.core.policy.gang.TiresiasLasPolicy;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.core.policy.hlas.HlasKeys;
import io.hare.core.policy.hlas.HlasPolicy;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registry of policies by short name. A policy is named in configuration by its
 * {@code NAME} (e.g. {@code hare}) or by a fully qualified class name that implements
 * {@link SchedulingPolicy} and has a public constructor taking a {@link PolicyConfig}.
 */
public final class Policies {

  private static final Map<String, PolicyFactory> BY_NAME;

  static {
    Map<String, PolicyFactory> m = new LinkedHashMap<>();
    // policy registry: one line per policy, in the order reports list them
    m.put(HarePolicy.NAME, HarePolicy::new);
    m.put(HlasPolicy.NAME, HlasPolicy::new);
    m.put(GavelFifoPolicy.NAME, GavelFifoPolicy::new);
    m.put(SrtfPolicy.NAME, SrtfPolicy::new);
    m.put(SchedHomoPolicy.NAME, SchedHomoPolicy::new);
    m.put(AlloxPolicy.NAME, AlloxPolicy::new);
    m.put(TiresiasLasPolicy.NAME, TiresiasLasPolicy::new);
    m.put(YarnFifoPolicy.NAME, YarnFifoPolicy::new);
    m.put(HarePolicy.PAPER_NAME, HarePolicy::paper);
    m.put(SrtfPolicy.HETERO_NAME, SrtfPolicy::hetero);
    m.put(SrtfPolicy.SMITH_NAME, SrtfPolicy::smith);
    BY_NAME = Collections.unmodifiableMap(m);
  }

  /**
   * The key namespace (after {@code yarn.scheduler.hare.}) of each built-in policy with keys of
   * its own. {@code hare-paper} reads the {@code hare.} keys too.
   */
  private static final Map<String, String> KEY_SPACES = Map.of("hare.", HarePolicy.NAME,
      "hlas.", HlasPolicy.NAME, "tiresias.", TiresiasLasPolicy.NAME, "allox.", AlloxPolicy.NAME);

  /** Every class declaring {@code yarn.scheduler.hare.*} keys: the host's, then each family's. */
  private static final List<Class<?>> KEY_CLASSES = List.of(SchedulerKeys.class, HareKeys.class,
      HlasKeys.class, GangKeys.class);

  private Policies() {}

  /**
   * The classes that declare the {@code yarn.scheduler.hare.*} keys together: {@link
   * SchedulerKeys} (the host's keys and those every policy reads) and the keys class of each
   * built-in family that has keys. The unknown-key check and the test that keeps
   * {@code hare-default.xml} in step read them all.
   */
  public static List<Class<?>> keyClasses() {
    return KEY_CLASSES;
  }

  /**
   * Problems with the keys of the built-in policies other than {@code chosen} that
   * {@code values} sets: each such policy is created once to validate them. A bad value is so
   * found when it is written, not at the restart that switches to its policy.
   */
  public static List<String> problemsOfOthers(String chosen, Map<String, String> values,
      long seed) {
    String running = chosen == null ? "" : chosen.trim();
    Set<String> problems = new LinkedHashSet<>();
    KEY_SPACES.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      String policy = e.getValue();
      if (policy.equals(running)
          || (policy.equals(HarePolicy.NAME) && running.equals(HarePolicy.PAPER_NAME))
          || values.keySet().stream().noneMatch(k -> k.startsWith(
              SchedulerKeys.PREFIX + e.getKey()))) {
        return;
      }
      try {
        create(policy, new PolicyConfig(values, seed));
      } catch (ConfigException ex) {
        problems.addAll(ex.problems());
      } catch (RuntimeException ex) {
        problems.add(policy + " keys: cannot be checked: " + ex);
      }
    });
    return List.copyOf(problems);
  }

  /** Short names of all built-in policies, in report order. */
  public static List<String> names() {
    return List.copyOf(BY_NAME.keySet());
  }

  /**
   * Creates a policy.
   *
   * @throws ConfigException if the name is unknown or any of the policy's settings is invalid;
   *     the message lists every problem
   */
  public static SchedulingPolicy create(String nameOrClass, PolicyConfig config)
      throws ConfigException {
    String key = nameOrClass == null ? "" : nameOrClass.trim();
    PolicyFactory f = BY_NAME.get(key);
    if (f == null && key.contains(".")) {
      f = byClassName(key);
    }
    if (f == null) {
      String hint = KeyHints.closest(key, names(), key.length() / 3 + 1)
          .map(n -> " (did you mean " + n + "?)").orElse("");
      throw new ConfigException(List.of("policy: unknown policy '" + key + "'" + hint
          + "; known: " + String.join(", ", names()) + ", or a class name implementing "
          + SchedulingPolicy.class.getName()));
    }
    SchedulingPolicy p = f.create(config);
    config.check();
    return p;
  }

  private static PolicyFactory byClassName(String className) throws ConfigException {
    try {
      Class<?> c = Class.forName(className);
      if (!SchedulingPolicy.class.isAssignableFrom(c)) {
        throw new ConfigException(List.of("policy: class " + className + " does not implement "
            + SchedulingPolicy.class.getName()));
      }
      var ctor = c.getConstructor(PolicyConfig.class);
      return cfg -> {
        try {
          return (SchedulingPolicy) ctor.newInstance(cfg);
        } catch (InstantiationException | IllegalAccessException e) {
          throw new IllegalStateException("cannot instantiate policy " + className, e);
        } catch (InvocationTargetException e) {
          throw new IllegalStateException("policy " + className + " failed to start: "
              + e.getCause(), e.getCause());
        }
      };
    } catch (ClassNotFoundException e) {
      throw new ConfigException(List.of("policy: class " + className + " not found"));
    } catch (NoSuchMethodException e) {
      throw new ConfigException(List.of("policy: class " + className
          + " needs a public constructor taking " + PolicyConfig.class.getName()));
    }
  }
}
