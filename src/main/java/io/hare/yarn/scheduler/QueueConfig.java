package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The queues an admin configured, read and checked with the rest of the settings
 * ({@link HareSettings#read}): {@code yarn.scheduler.hare.queues} names them ({@code default} is
 * always one), {@code yarn.scheduler.hare.queue.<name>.<setting>} sets each, and
 * {@code queue-mappings} maps users and groups to them ({@link QueueMappings}). Every problem
 * is recorded in the shared {@link PolicyConfig}, each naming the key, the bad value and what is
 * allowed, so a bad file stops the RM or fails a refresh with the whole list. Queues are flat:
 * a name has no dots. Immutable.
 *
 * @param queues by name, {@code default} first, then as listed
 * @param mappings user and group to queue
 */
record QueueConfig(Map<String, QueueSettings> queues, QueueMappings mappings) {

  static final String DEFAULT = HareQueue.NAME;
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");
  static final String GUARANTEED = "guaranteed-gpu-share";
  static final String MAXIMUM = "maximum-gpu-share";
  static final String SUBMIT = "acl-submit-applications";
  static final String ADMINISTER = "acl-administer-queue";
  static final String MAX_APPS = "maximum-applications";
  static final String USER_LIMIT = "user-limit";
  static final String AM_SHARE = "maximum-am-resource-percent";
  static final List<String> SETTINGS =
      List.of(GUARANTEED, MAXIMUM, SUBMIT, ADMINISTER, MAX_APPS, USER_LIMIT, AM_SHARE);

  QueueConfig {
    queues = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(queues));
  }

  static String key(String queue, String setting) {
    return SchedulerKeys.QUEUE_PREFIX + queue + "." + setting;
  }

  /** Whether any queue but {@code default} is configured: guarantees matter only then. */
  boolean several() {
    return queues.size() > 1;
  }

  static QueueConfig read(PolicyConfig t) {
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
    Map<String, QueueSettings> out = new LinkedHashMap<>();
    double others = 0;
    for (String n : names) {
      if (!n.equals(DEFAULT)) {
        QueueSettings q = one(t, n, 0);
        out.put(n, q);
        others += q.guaranteedShare();
      }
    }
    // default is guaranteed what the others leave unless set, so that one queue gets everything
    QueueSettings d = one(t, DEFAULT, Math.max(0, Math.min(1, 1 - others)));
    Map<String, QueueSettings> ordered = new LinkedHashMap<>();
    ordered.put(DEFAULT, d);
    ordered.putAll(out);
    double sum = others + d.guaranteedShare();
    if (sum > 1 + 1e-9) {
      List<String> each = new ArrayList<>();
      ordered.values().forEach(q -> each.add(q.name() + " " + q.guaranteedShare()));
      t.addProblem(SchedulerKeys.QUEUE_PREFIX + "*." + GUARANTEED + ": the guarantees must sum"
          + " to at most 1 (the whole fleet), got " + Math.round(sum * 1e6) / 1e6 + " ("
          + String.join(", ", each) + ")");
    }
    return new QueueConfig(ordered, QueueMappings.read(t, names));
  }

  private static QueueSettings one(PolicyConfig t, String n, double defaultGuarantee) {
    String gk = key(n, GUARANTEED);
    double guaranteed = t.values().containsKey(gk) && !t.values().get(gk).isBlank()
        ? t.getDouble(gk, defaultGuarantee, 0, 1) : defaultGuarantee;
    double maximum = t.getDouble(key(n, MAXIMUM),
        SchedulerKeys.DEFAULT_QUEUE_DEFAULT_MAXIMUM_GPU_SHARE, 0, 1);
    if (maximum < guaranteed) {
      t.addProblem(key(n, MAXIMUM) + ": must be at least the queue's " + GUARANTEED + " ("
          + guaranteed + "), got " + maximum);
    }
    QueueAcls acls = QueueAcls.read(t, key(n, SUBMIT), key(n, ADMINISTER));
    int maxApps = t.getInt(key(n, MAX_APPS),
        SchedulerKeys.DEFAULT_QUEUE_DEFAULT_MAXIMUM_APPLICATIONS, 1, Integer.MAX_VALUE);
    int userLimit = t.getInt(key(n, USER_LIMIT), SchedulerKeys.DEFAULT_QUEUE_DEFAULT_USER_LIMIT,
        -1, Integer.MAX_VALUE);
    if (userLimit == 0) {
      t.addProblem(key(n, USER_LIMIT) + ": must be -1 (no limit) or at least 1 running"
          + " application per user, got 0");
    }
    double am = t.getDouble(key(n, AM_SHARE),
        SchedulerKeys.DEFAULT_QUEUE_DEFAULT_MAXIMUM_AM_RESOURCE_PERCENT, 0.01, 1);
    return new QueueSettings(n, guaranteed, maximum, acls, maxApps, userLimit, am);
  }
}
