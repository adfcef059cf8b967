package io.hare.core.queues;

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
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The queues and their GPU shares, read from the scheduler keys without Hadoop, so that the
 * ResourceManager ({@code QueueConfig}, which adds ACLs and limits) and the simulator read one
 * configuration the same way: {@code yarn.scheduler.hare.queues} names the queues
 * ({@code default} is always one) and {@code yarn.scheduler.hare.queue.<name>.<setting>} sets each.
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

  /** Names, then every queue's shares, then their sum. */
  public static QueueShares read(PolicyConfig t) {
    Set<String> names = names(t);
    Map<String, QueueShare> out = new LinkedHashMap<>();
    double others = 0;
    for (String n : names) {
      if (!n.equals(DEFAULT)) {
        QueueShare q = share(t, n, 0);
        out.put(n, q);
        others += q.guaranteedShare();
      }
    }
    Map<String, QueueShare> ordered = new LinkedHashMap<>();
    ordered.put(DEFAULT, share(t, DEFAULT, defaultGuarantee(others)));
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
      } else if (!SETTINGS.contains(setting)) {
        t.addProblem(key + ": unknown queue setting '" + setting + "'; a queue's settings are "
            + String.join(", ", SETTINGS));
      }
    }
    return names;
  }

  /** What {@code default} is guaranteed unless set: what the other queues leave. */
  public static double defaultGuarantee(double others) {
    return Math.max(0, Math.min(1, 1 - others));
  }

  /** One queue's shares; records a problem for a share out of range or a maximum below it. */
  public static QueueShare share(PolicyConfig t, String n, double defaultGuarantee) {
    String gk = key(n, GUARANTEED);
    double guaranteed = t.values().containsKey(gk) && !t.values().get(gk).isBlank()
        ? t.getDouble(gk, defaultGuarantee, 0, 1) : defaultGuarantee;
    double maximum = t.getDouble(key(n, MAXIMUM),
        SchedulerKeys.DEFAULT_QUEUE_DEFAULT_MAXIMUM_GPU_SHARE, 0, 1);
    if (maximum < guaranteed) {
      t.addProblem(key(n, MAXIMUM) + ": must be at least the queue's " + GUARANTEED + " ("
          + guaranteed + "), got " + maximum);
    }
    return new QueueShare(n, guaranteed, maximum);
  }

  /** Records a problem if the guarantees sum to more than the whole fleet. */
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
  }
}
