package io.hare.core.queues;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The queues and their GPU shares, read from the scheduler keys without Hadoop, so that the
 * ResourceManager ({@code QueueConfig}, which adds ACLs and limits) and the simulator read one
 * configuration the same way: {@code yarn.scheduler.hare.queues} names the queues
 * ({@code default} is always one) and {@code yarn.scheduler.hare.queue.<name>.<setting>} sets each.
 * A queue's guarantee is of the whole fleet ({@code guaranteed-gpu-share}) or of GPU types
 * ({@code guaranteed-gpu-share.<type>}, one key per type, the type named as {@link GpuType}
 * names it); a type the cluster does not have is accepted, since the cluster's types are not
 * known when the file is read, and guarantees 0 GPUs while it has none.
 * Every problem is recorded in the given {@link PolicyConfig}, naming the key, the bad value and
 * what is allowed. Immutable.
 *
 * @param queues by name, {@code default} first, then as listed
 */
public record QueueShares(Map<String, QueueShare> queues) {

  public static final String DEFAULT = SchedulerKeys.DEFAULT_QUEUES;
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
  public static final String GUARANTEED = "guaranteed-gpu-share";
  public static final String MAXIMUM = "maximum-gpu-share";
  public static final String SUBMIT = "acl-submit-applications";
  public static final String ADMINISTER = "acl-administer-queue";
  public static final String MAX_APPS = "maximum-applications";
  public static final String USER_LIMIT = "user-limit";
  public static final String AM_SHARE = "maximum-am-resource-percent";
  /** Every setting a queue has; the simulator reads only the two shares. */
  public static final List<String> SETTINGS =
      List.of(GUARANTEED, MAXIMUM, SUBMIT, ADMINISTER, MAX_APPS, USER_LIMIT, AM_SHARE);

  public QueueShares {
    if (!queues.containsKey(DEFAULT)) {
      throw new IllegalArgumentException("the queues must include " + DEFAULT + ", got "
          + queues.keySet());
    }
    queues = Collections.unmodifiableMap(new LinkedHashMap<>(queues));
  }

  /** {@code default} alone, with every GPU: what a cluster without queues has. */
  public static QueueShares single() {
    return new QueueShares(Map.of(DEFAULT, QueueShare.whole(DEFAULT)));
  }

  public static String key(String queue, String setting) {
    return SchedulerKeys.QUEUE_PREFIX + queue + "." + setting;
  }

  /** Whether any queue but {@code default} is configured: guarantees matter only then. */
  public boolean several() {
    return queues.size() > 1;
  }

  /** The queue {@code name} stands for: itself if configured, else {@code default}. */
  public String queueOf(String name) {
    return queues.containsKey(name) ? name : DEFAULT;
  }

  /** Whether some queue's guarantee is of GPU types rather than of the fleet. */
  public boolean perType() {
    return queues.values().stream().anyMatch(QueueShare::perType);
  }

  /** Names, then every queue's shares, then their sum. */
  public static QueueShares read(PolicyConfig t) {
    Set<String> names = names(t);
    Map<String, QueueShare> out = new LinkedHashMap<>();
    for (String n : names) {
      if (!n.equals(DEFAULT)) {
        out.put(n, share(t, n, 0));
      }
    }
    Map<String, QueueShare> ordered = new LinkedHashMap<>();
    ordered.put(DEFAULT, share(t, DEFAULT, defaultGuarantee(out.values())));
    ordered.putAll(out);
    checkSum(t, ordered.values());
    return new QueueShares(ordered);
  }

  /**
   * The queue names, {@code default} first; records a problem for a bad or repeated name, and for
   * a {@code queue.<name>.<setting>} key naming a queue not listed or a setting not in
   * {@link #SETTINGS}.
   */
  public static Set<String> names(PolicyConfig t) {
    Set<String> names = new LinkedHashSet<>();
    names.add(DEFAULT);
    Set<String> seen = new TreeSet<>();
    for (String raw : t.getString(SchedulerKeys.QUEUES, SchedulerKeys.DEFAULT_QUEUES).split(",")) {
      String n = raw.strip();
      if (n.isEmpty()) {
        continue;
      }
      if (!NAME.matcher(n).matches()) {
        t.addProblem(SchedulerKeys.QUEUES + ": queue name '" + n + "' must be letters, digits,"
            + " '-' and '_' (Hare's queues are flat: no dots)");
      } else if (!seen.add(n)) {
        t.addProblem(SchedulerKeys.QUEUES + ": queue '" + n + "' is listed twice");
      } else {
        names.add(n);
      }
    }
    for (String key : new TreeSet<>(t.values().keySet())) {
      if (!key.startsWith(SchedulerKeys.QUEUE_PREFIX)) {
        continue;
      }
      String rest = key.substring(SchedulerKeys.QUEUE_PREFIX.length());
      int dot = rest.indexOf('.');
      String queue = dot < 0 ? rest : rest.substring(0, dot);
      String setting = dot < 0 ? "" : rest.substring(dot + 1);
      if (!names.contains(queue)) {
        t.addProblem(key + ": queue '" + queue + "' is not in " + SchedulerKeys.QUEUES + " "
            + names + "; add it there or remove the key");
      } else if (!SETTINGS.contains(setting) && !setting.startsWith(GUARANTEED + ".")) {
        t.addProblem(key + ": unknown queue setting '" + setting + "'; a queue's settings are "
            + String.join(", ", SETTINGS) + " and " + GUARANTEED + ".<GPU type>");
      }
    }
    return names;
  }

  /**
   * What {@code default} is guaranteed unless set: what the other queues' fleet shares leave.
   * Once any queue has per-type guarantees, 0: what those leave of the fleet depends on the
   * cluster's GPUs, which are not known when the file is read, and a fleet guarantee of the rest
   * would compete with them for their own types.
   */
  public static double defaultGuarantee(Collection<QueueShare> others) {
    double sum = 0;
    for (QueueShare q : others) {
      if (q.perType()) {
        return 0;
      }
      sum += q.guaranteedShare();
    }
    return Math.max(0, Math.min(1, 1 - sum));
  }

  /**
   * One queue's shares; records a problem for a share out of range, a maximum below the fleet
   * guarantee, a bad GPU type, a type set twice, and a queue setting both kinds of guarantee.
   */
  public static QueueShare share(PolicyConfig t, String n, double defaultGuarantee) {
    String gk = key(n, GUARANTEED);
    Map<GpuType, Double> types = typeShares(t, n);
    boolean fleetSet = t.values().containsKey(gk) && !t.values().get(gk).isBlank();
    if (fleetSet && !types.isEmpty()) {
      t.addProblem(gk + ": a queue is guaranteed either a share of the whole fleet (" + GUARANTEED
          + ") or shares of GPU types (" + GUARANTEED + ".<type>), not both; got "
          + t.values().get(gk).strip() + " and " + typesText(types) + "; remove one");
    }
    double guaranteed = fleetSet ? t.getDouble(gk, defaultGuarantee, 0, 1)
        : types.isEmpty() ? defaultGuarantee : 0;
    double maximum = t.getDouble(key(n, MAXIMUM),
        SchedulerKeys.DEFAULT_QUEUE_DEFAULT_MAXIMUM_GPU_SHARE, 0, 1);
    if (maximum < guaranteed) {
      t.addProblem(key(n, MAXIMUM) + ": must be at least the queue's " + GUARANTEED + " ("
          + guaranteed + "), got " + maximum);
    }
    return new QueueShare(n, types.isEmpty() ? guaranteed : 0, maximum, types);
  }

  /** The queue's {@code guaranteed-gpu-share.<type>} keys, each checked, by type. */
  private static Map<GpuType, Double> typeShares(PolicyConfig t, String n) {
    String prefix = key(n, GUARANTEED) + ".";
    Map<GpuType, Double> out = new TreeMap<>();
    Map<GpuType, String> keyOf = new TreeMap<>();
    for (String k : new TreeSet<>(t.values().keySet())) {
      if (!k.startsWith(prefix) || t.values().get(k).isBlank()) {
        continue;
      }
      String name = k.substring(prefix.length());
      GpuType type;
      try {
        type = GpuType.of(name);
      } catch (IllegalArgumentException e) {
        t.addProblem(k + ": '" + name + "' is not a GPU type name: 1-64 letters, digits, '-' and"
            + " '_', starting with a letter or digit, as the nodes report the type (v100, t4)");
        continue;
      }
      double v = t.getDouble(k, 0, 0, 1);
      String before = keyOf.putIfAbsent(type, k);
      if (before != null) {
        t.addProblem(k + ": GPU type " + type + " is set twice, also by " + before
            + " (type names ignore case); keep one");
      } else {
        out.put(type, v);
      }
    }
    return out;
  }

  private static String typesText(Map<GpuType, Double> types) {
    List<String> each = new ArrayList<>();
    types.forEach((ty, v) -> each.add(GUARANTEED + "." + ty + "=" + v));
    return String.join(", ", each);
  }

  /**
   * Records a problem if the fleet guarantees sum to more than the whole fleet, or one type's
   * guarantees to more than all its GPUs.
   */
  public static void checkSum(PolicyConfig t, Collection<QueueShare> queues) {
    double sum = 0;
    for (QueueShare q : queues) {
      sum += q.guaranteedShare();
    }
    if (sum > 1 + 1e-9) {
      List<String> each = new ArrayList<>();
      queues.forEach(q -> each.add(q.name() + " " + q.guaranteedShare()));
      t.addProblem(SchedulerKeys.QUEUE_PREFIX + "*." + GUARANTEED + ": the guarantees must sum"
          + " to at most 1 (the whole fleet), got " + Math.round(sum * 1e6) / 1e6 + " ("
          + String.join(", ", each) + ")");
    }
    Map<GpuType, Double> byType = new TreeMap<>();
    for (QueueShare q : queues) {
      q.typeShares().forEach((ty, v) -> byType.merge(ty, v, Double::sum));
    }
    byType.forEach((ty, s) -> {
      if (s > 1 + 1e-9) {
        List<String> each = new ArrayList<>();
        for (QueueShare q : queues) {
          if (q.typeShares().containsKey(ty)) {
            each.add(q.name() + " " + q.typeShares().get(ty));
          }
        }
        t.addProblem(SchedulerKeys.QUEUE_PREFIX + "*." + GUARANTEED + "." + ty + ": the"
            + " guarantees of GPU type " + ty + " must sum to at most 1 (all its GPUs), got "
            + Math.round(s * 1e6) / 1e6 + " (" + String.join(", ", each) + ")");
      }
    });
  }
}
