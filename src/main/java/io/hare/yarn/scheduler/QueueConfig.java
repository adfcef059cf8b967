package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.queues.QueueShare;
import io.hare.core.queues.QueueShares;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The queues an admin configured, read and checked with the rest of the settings
 * ({@link HareSettings#read}): {@code yarn.scheduler.hare.queues} names them ({@code default} is
 * always one), {@code yarn.scheduler.hare.queue.<name>.<setting>} sets each, and
 * {@code queue-mappings} maps users and groups to them ({@link QueueMappings}). Names and GPU
 * shares are read as the simulator reads them ({@link QueueShares}); ACLs and limits only here.
 * Every problem is recorded in the shared {@link PolicyConfig}, each naming the key, the bad
 * value and what is allowed, so a bad file stops the RM or fails a refresh with the whole list.
 * Queues are flat: a name has no dots. Immutable.
 *
 * @param queues by name, {@code default} first, then as listed
 * @param mappings user and group to queue
 */
record QueueConfig(Map<String, QueueSettings> queues, QueueMappings mappings) {

  static final String DEFAULT = HareQueue.NAME;
  static final Pattern NAME = QueueShares.NAME;
  static final String GUARANTEED = QueueShares.GUARANTEED;
  static final String MAXIMUM = QueueShares.MAXIMUM;
  static final String SUBMIT = QueueShares.SUBMIT;
  static final String ADMINISTER = QueueShares.ADMINISTER;
  static final String MAX_APPS = QueueShares.MAX_APPS;
  static final String USER_LIMIT = QueueShares.USER_LIMIT;
  static final String AM_SHARE = QueueShares.AM_SHARE;
  static final List<String> SETTINGS = QueueShares.SETTINGS;

  QueueConfig {
    queues = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(queues));
  }

  static String key(String queue, String setting) {
    return QueueShares.key(queue, setting);
  }

  /** Whether any queue but {@code default} is configured: guarantees matter only then. */
  boolean several() {
    return queues.size() > 1;
  }

  /** The queues' GPU shares alone, as {@link io.hare.core.queues.QueueGuarantees} takes them. */
  QueueShares shares() {
    Map<String, QueueShare> out = new LinkedHashMap<>();
    queues.forEach((n, q) -> out.put(n, q.share()));
    return new QueueShares(out);
  }

  static QueueConfig read(PolicyConfig t) {
    Set<String> names = QueueShares.names(t);
    Map<String, QueueSettings> out = new LinkedHashMap<>();
    for (String n : names) {
      if (!n.equals(DEFAULT)) {
        out.put(n, one(t, n, 0));
      }
    }
    // default is guaranteed what the others leave unless set, so that one queue gets everything
    QueueSettings d = one(t, DEFAULT, QueueShares.defaultGuarantee(
        out.values().stream().map(QueueSettings::share).toList()));
    Map<String, QueueSettings> ordered = new LinkedHashMap<>();
    ordered.put(DEFAULT, d);
    ordered.putAll(out);
    QueueShares.checkSum(t, ordered.values().stream().map(QueueSettings::share).toList());
    return new QueueConfig(ordered, QueueMappings.read(t, names));
  }

  private static QueueSettings one(PolicyConfig t, String n, double defaultGuarantee) {
    QueueShare share = QueueShares.share(t, n, defaultGuarantee);
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
    return new QueueSettings(n, share.guaranteedShare(), share.maximumShare(), acls, maxApps,
        userLimit, am, share.typeShares());
  }
}
