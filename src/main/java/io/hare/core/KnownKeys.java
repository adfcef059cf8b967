package io.hare.core;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * The keys constants classes ({@link SchedulerKeys}, and the like) declare, so that a misspelt
 * key is refused with a suggestion instead of being silently ignored. A key constant is a public
 * static String field whose name does not start with {@code DEFAULT_}; one whose name ends with
 * {@code PREFIX} declares a family of keys ({@code weight.max.user.<user>}).
 */
public final class KnownKeys {

  private final String root;
  /** The file documenting the keys, named where a misspelt key has no close match. */
  private final String defaults;
  private final Set<String> keys = new TreeSet<>();
  private final List<String> families = new ArrayList<>();

  /**
   * @param constants the class declaring the keys
   * @param root the common prefix of all its keys; only keys under it are checked
   */
  public KnownKeys(Class<?> constants, String root) {
    this(List.of(constants), root);
  }

  /**
   * @param constants the class declaring the keys
   * @param root the common prefix of all its keys; only keys under it are checked
   * @param defaults the file that documents them, such as {@code hare-sim-default.xml}
   */
  public KnownKeys(Class<?> constants, String root, String defaults) {
    this(List.of(constants), root, defaults);
  }

  /**
   * @param constants the classes declaring the keys together (the host's and each policy
   *     family's)
   * @param root the common prefix of all their keys; only keys under it are checked
   */
  public KnownKeys(List<Class<?>> constants, String root) {
    this(constants, root, "hare-default.xml");
  }

  private KnownKeys(List<Class<?>> constants, String root, String defaults) {
    this.root = root;
    this.defaults = defaults;
    for (Class<?> c : constants) {
      read(c);
    }
  }

  private void read(Class<?> constants) {
    for (Field f : constants.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class
          || f.getName().startsWith("DEFAULT_")) {
        continue;
      }
      String value;
      try {
        value = (String) f.get(null);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + f, e);
      }
      if (!value.startsWith(root) || value.equals(root)) {
        continue;
      }
      if (f.getName().endsWith("PREFIX")) {
        families.add(value);
      } else {
        keys.add(value);
      }
    }
  }

  /** One problem per key under the root that is not known, with the closest known key. */
  public List<String> unknown(Collection<String> given) {
    List<String> problems = new ArrayList<>();
    for (String k : new TreeSet<>(given)) {
      if (!k.startsWith(root) || keys.contains(k)
          || families.stream().anyMatch(p -> k.startsWith(p) && k.length() > p.length())) {
        continue;
      }
      problems.add(k + ": unknown key" + suggestion(k));
    }
    return problems;
  }

  private String suggestion(String key) {
    LevenshteinDistance d = LevenshteinDistance.getDefaultInstance();
    String best = null;
    int bestD = Integer.MAX_VALUE;
    for (String k : keys) {
      int x = d.apply(key, k);
      if (x < bestD) {
        best = k;
        bestD = x;
      }
    }
    // a suggestion further than a third of the key (past the common root) away is noise:
    // counting the root, "preemption.enabled" was one edit short of "hare.lp-intervals"
    int own = key.length() - root.length();
    return best != null && bestD <= Math.max(2, own / 3 + 1)
        ? "; did you mean " + best + "?" : "; see " + defaults + " for the known keys";
  }
}
