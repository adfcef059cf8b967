package io.hare.core.policy;

import io.hare.core.ConfigException;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    BY_NAME = Collections.unmodifiableMap(m);
  }

  private Policies() {}

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
      throw new ConfigException(List.of("policy: unknown policy '" + key + "'; known: "
          + String.join(", ", names()) + ", or a class name implementing "
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
