package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.queues.GuaranteeFit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.Groups;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueState;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hare's queues ({@link QueueConfig}) at run time: where each application is, which queue a
 * submission goes to (the queue it names, or the mappings' for {@code default}), the limits on
 * submissions ({@code maximum-applications}, refused with a diagnostic) and on running
 * applications ({@code user-limit} and {@code maximum-am-resource-percent}: the AM waits), and
 * moves between queues. Queue metrics are children of a root's ({@code root.<queue>}), as
 * CapacityScheduler's. A refresh replaces the settings of the queues it keeps, adds new ones and
 * refuses to drop a queue that still holds applications. Not thread-safe: the scheduler's lock.
 */
final class HareQueues implements AmGate {

  private static final Logger LOG = LoggerFactory.getLogger(HareQueues.class);

  /** Where an application is, and whose it is. */
  private record Member(HareQueue queue, String user) {}

  /** A submission's queue, or why it is refused. */
  record Placement(HareQueue queue, String refusal) {}

  private final Configuration conf;
  private final Supplier<Resource> cluster;
  /** The cluster's GPUs per type, as of the scheduler's last look ({@link #gpus}). */
  private volatile Map<GpuType, Integer> gpus = Map.of();
  private final Function<ApplicationId, SchedulerApplication<?>> apps;
  private final HareQueue root;
  /** Replaced whole, never changed: read by REST threads too. */
  private volatile Map<String, HareQueue> queues = Map.of();
  private QueueConfig config;
  /** What the guarantees promise beyond the cluster's GPUs ({@link GuaranteeFit}); null: they fit. */
  private volatile String overcommit;
  private final Map<ApplicationId, Member> members = new HashMap<>();
  private final Set<ApplicationId> waitLogged = new HashSet<>();

  /**
   * @param cluster the cluster's resources now
   * @param apps the scheduler's applications
   */
  HareQueues(QueueConfig config, Configuration conf, Supplier<Resource> cluster,
      Function<ApplicationId, SchedulerApplication<?>> apps) {
    this.conf = conf;
    this.cluster = cluster;
    this.apps = apps;
    this.root = new HareQueue(QueueSettings.whole("root"),
        QueueMetrics.forQueue("root", null, false, conf), cluster, () -> gpus,
        this::usedByAll);
    try {
      apply(config);
    } catch (IOException e) {
      throw new IllegalStateException("no application can be in a queue yet", e);
    }
  }

  /**
   * The cluster's GPUs per type now: a queue guaranteed GPU types reports its guaranteed GPUs
   * over the fleet's as its capacity. Read by RPC and REST threads, hence a snapshot.
   */
  void gpus(Map<GpuType, Integer> perType) {
    // called when GPUs or pending tasks change; the check needs only the former
    if (perType.equals(gpus)) {
      return;
    }
    gpus = Map.copyOf(perType);
    checkFit();
  }

  /**
   * Logs, once per change, whether the guarantees of both kinds together promise more GPUs than
   * the cluster has: the file could not be checked against GPUs that had not registered yet.
   */
  private void checkFit() {
    String now = GuaranteeFit.overcommit(config.shares(), gpus).orElse(null);
    if (Objects.equals(now, overcommit)) {
      return;
    }
    if (now != null) {
      LOG.warn("{}", now);
    } else {
      LOG.info("the queues' GPU guarantees fit the cluster's {} GPUs again",
          gpus.values().stream().mapToInt(Integer::intValue).sum());
    }
    overcommit = now;
  }

  /** What the guarantees promise beyond the cluster's GPUs, in words; empty when they fit. */
  Optional<String> overcommit() {
    return Optional.ofNullable(overcommit);
  }

  /**
   * Takes a refreshed configuration: queues kept get their new settings, new queues start empty.
   *
   * @throws IOException naming each queue the configuration drops that still holds applications
   *     (nothing is changed then)
   */
  void apply(QueueConfig c) throws IOException {
    List<String> busy = new ArrayList<>();
    for (HareQueue q : queues.values()) {
      if (!c.queues().containsKey(q.getQueueName()) && !q.apps().isEmpty()) {
        busy.add(q.getQueueName() + " (" + q.apps().size() + " applications)");
      }
    }
    if (!busy.isEmpty()) {
      throw new IOException(SchedulerKeys.QUEUES + ": cannot drop queues that hold applications: "
          + String.join(", ", busy) + "; move them (yarn application -movetoqueue) or let them"
          + " finish first");
    }
    Map<String, HareQueue> next = new LinkedHashMap<>();
    for (QueueSettings s : c.queues().values()) {
      HareQueue q = queues.get(s.name());
      if (q == null) {
        QueueMetrics metrics = QueueMetrics.forQueue("root." + s.name(), root, false, conf);
        // the queue's metrics, not its attempts' live containers: an attempt's usage report
        // asks its queue for this while holding the attempt's write lock, and taking the other
        // attempts' locks from there deadlocks two such reports
        q = new HareQueue(s, metrics, cluster, () -> gpus, metrics::getAllocatedResources);
      } else {
        q.setSettings(s);
      }
      next.put(s.name(), q);
    }
    queues = next;
    config = c;
    checkFit();
  }

  QueueConfig config() {
    return config;
  }

  /** The root's metrics: every queue's summed, as the RM's cluster metrics read them. */
  QueueMetrics rootMetrics() {
    return root.getMetrics();
  }

  /** The queue of this name ({@code root.} prefix allowed), or null. */
  HareQueue get(String name) {
    if (name == null) {
      return queues.get(HareQueue.NAME);
    }
    String n = name.startsWith("root.") ? name.substring(5) : name;
    return queues.get(n);
  }

  Collection<HareQueue> all() {
    return queues.values();
  }

  /** The queue {@code app} is in, or null when unknown. */
  HareQueue of(ApplicationId app) {
    Member m = members.get(app);
    return m == null ? null : m.queue();
  }

  /** The configured queue names, for messages. */
  String names() {
    return queues.keySet().toString();
  }

  /**
   * The queue of a new application of {@code user} that asked for {@code requested}: the
   * mappings decide for {@code default} (or none named); an unknown queue, or one that holds its
   * {@code maximum-applications}, refuses it. A recovered application is never refused for its
   * count (it was admitted before the restart).
   */
  Placement place(String requested, String user, boolean recovering) {
    HareQueue named = get(requested == null || requested.isBlank() ? null : requested.strip());
    if (named == null) {
      return new Placement(null, "queue '" + requested + "' does not exist; Hare's queues are "
          + names() + " (" + SchedulerKeys.QUEUES + ")");
    }
    HareQueue q = named;
    if (named.getQueueName().equals(HareQueue.NAME)) {
      q = config.mappings().map(user, this::groups, queues.keySet()).map(queues::get)
          .orElse(named);
    }
    int max = q.settings().maximumApplications();
    if (!recovering && q.apps().size() >= max) {
      return new Placement(null, "queue " + q.getQueueName() + " already holds " + q.apps().size()
          + " applications, its maximum (" + QueueConfig.key(q.getQueueName(),
              QueueConfig.MAX_APPS) + " = " + max + ")");
    }
    return new Placement(q, null);
  }

  private List<String> groups(String user) {
    try {
      return Groups.getUserToGroupsMappingService(conf).getGroups(user);
    } catch (IOException e) {
      LOG.info("no groups for user {} ({}); group mappings skip it", user, e.toString());
      return List.of();
    }
  }

  /** An application was admitted to {@code q}. */
  void admitted(ApplicationId app, HareQueue q, String user) {
    members.put(app, new Member(q, user));
    q.add(app);
  }

  /** An application ended. */
  void removed(ApplicationId app) {
    Member m = members.remove(app);
    waitLogged.remove(app);
    if (m != null) {
      m.queue().remove(m.user(), app);
    }
  }

  /**
   * An AM may start when its queue's AMs stay within their share and, for an application not yet
   * running, its user runs fewer than the queue's {@code user-limit} applications.
   */
  @Override
  public boolean admits(ApplicationId app, Resource size) {
    Member m = members.get(app);
    if (m == null) {
      return true; // not Hare's to limit (should not happen: every attempt has an application)
    }
    HareQueue q = m.queue();
    int limit = q.settings().userLimit();
    if (limit > 0 && !q.isRunning(m.user(), app) && q.runningOf(m.user()) >= limit) {
      if (waitLogged.add(app)) {
        LOG.info("{}: its ApplicationMaster waits: user {} runs {} applications in queue {}, its"
            + " {}", app, m.user(), q.runningOf(m.user()), q.getQueueName(),
            QueueConfig.key(q.getQueueName(), QueueConfig.USER_LIMIT));
      }
      return false;
    }
    return q.amLimit().admits(app, size);
  }

  @Override
  public void placed(RMContainer c) {
    ApplicationId app = c.getApplicationAttemptId().getApplicationId();
    Member m = members.get(app);
    if (m != null) {
      m.queue().amLimit().placed(c);
      m.queue().started(m.user(), app);
      waitLogged.remove(app);
    }
  }

  /** A container ended: if an AM's, its queue's AM share frees. */
  void ended(ContainerId id) {
    for (HareQueue q : queues.values()) {
      q.amLimit().ended(id);
    }
  }

  /**
   * Whether {@code app} may move to {@code target}: the queue exists, is another one, has room
   * under its {@code maximum-applications} and, for a running application, its owner's
   * {@code user-limit}; with ACLs on, the owner may submit there (the caller's own right to is
   * checked by the RM before).
   *
   * @throws YarnException saying which rule refuses the move
   */
  HareQueue checkMove(ApplicationId app, String target, boolean aclsEnabled)
      throws YarnException {
    Member m = members.get(app);
    if (m == null) {
      throw new YarnException("Hare does not know application " + app);
    }
    HareQueue to = get(target);
    if (to == null) {
      throw new YarnException("cannot move " + app + ": queue '" + target + "' does not exist;"
          + " Hare's queues are " + names());
    }
    if (to == m.queue()) {
      throw new YarnException("cannot move " + app + ": it is in queue " + target + " already");
    }
    if (to.apps().size() >= to.settings().maximumApplications()) {
      throw new YarnException("cannot move " + app + ": queue " + to.getQueueName() + " holds "
          + to.apps().size() + " applications, its maximum ("
          + QueueConfig.key(to.getQueueName(), QueueConfig.MAX_APPS) + ")");
    }
    int limit = to.settings().userLimit();
    if (m.queue().isRunning(m.user(), app) && limit > 0 && to.runningOf(m.user()) >= limit) {
      throw new YarnException("cannot move " + app + ": user " + m.user() + " runs "
          + to.runningOf(m.user()) + " applications in queue " + to.getQueueName() + ", its "
          + QueueConfig.key(to.getQueueName(), QueueConfig.USER_LIMIT));
    }
    if (aclsEnabled) {
      UserGroupInformation owner = UserGroupInformation.createRemoteUser(m.user());
      if (!to.hasAccess(QueueACL.SUBMIT_APPLICATIONS, owner)
          && !to.hasAccess(QueueACL.ADMINISTER_QUEUE, owner)) {
        throw new YarnException("cannot move " + app + ": its owner " + m.user() + " may not"
            + " submit to queue " + to.getQueueName() + " ("
            + QueueConfig.key(to.getQueueName(), QueueConfig.SUBMIT) + ")");
      }
    }
    return to;
  }

  /**
   * Moves {@code id} to {@code target} if {@link #checkMove} allows: its YARN application and
   * attempt too, so that its live containers, pending asks and counts move in the metrics.
   *
   * @return the queue's name
   */
  String move(ApplicationId id, String target, boolean acls) throws YarnException {
    HareQueue to = checkMove(id, target, acls);
    SchedulerApplication<?> app = apps.apply(id);
    HareQueue from = move(id, to);
    app.setQueue(to);
    SchedulerApplicationAttempt attempt = app.getCurrentAppAttempt();
    if (attempt != null) {
      attempt.move(to);
    }
    LOG.info("moved {} from queue {} to {}", id, from.getQueueName(), to.getQueueName());
    return to.getQueueName();
  }

  private HareQueue move(ApplicationId app, HareQueue to) {
    Member m = members.get(app);
    HareQueue from = m.queue();
    boolean running = from.isRunning(m.user(), app);
    from.remove(m.user(), app);
    to.add(app);
    if (running) {
      to.started(m.user(), app);
    }
    members.put(app, new Member(to, m.user()));
    return from;
  }

  /**
   * A queue's info for {@code yarn queue -status}; {@code root} lists every queue as a child,
   * null (the RM's scheduler page) is {@code default}.
   *
   * <p>An unknown queue throws an {@link IOException} naming the known ones, as
   * CapacityScheduler's "Unknown queue": YARN's callers expect exactly that (the submission check
   * ignores it, {@code yarn queue -status} shows its message), but FifoScheduler's override,
   * which this one replaces, dropped the {@code throws IOException} of YarnScheduler's
   * signature, so it is thrown unchecked.
   */
  QueueInfo info(String name) {
    if ("root".equals(name)) {
      return rootInfo();
    }
    HareQueue q = get(name == null || name.isBlank() ? null : name);
    if (q == null) {
      throw HareQueues.<RuntimeException>asUnchecked(new IOException("Unknown queue: " + name
          + "; Hare's queues are " + names()));
    }
    return q.getQueueInfo(false, false);
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E asUnchecked(Throwable e) throws E {
    throw (E) e;
  }

  /** Each queue's ACLs of the caller, as CapacityScheduler and FairScheduler find the caller. */
  List<QueueUserACLInfo> userAclInfo() {
    UserGroupInformation caller = null;
    try {
      caller = UserGroupInformation.getCurrentUser();
    } catch (IOException e) {
      LOG.warn("cannot tell the caller of getQueueUserAclInfo: {}", e.toString());
    }
    List<QueueUserACLInfo> out = new ArrayList<>();
    for (HareQueue q : queues.values()) {
      out.addAll(q.getQueueUserAclInfo(caller));
    }
    return out;
  }

  /**
   * The current attempts of a queue's applications ({@code root}: all); null for an unknown
   * queue, as YARN's schedulers answer.
   */
  List<ApplicationAttemptId> attemptsIn(String name) {
    List<ApplicationId> ids = new ArrayList<>();
    if ("root".equals(name)) {
      queues.values().forEach(q -> ids.addAll(q.apps()));
    } else if (get(name) != null) {
      ids.addAll(get(name).apps());
    } else {
      return null;
    }
    List<ApplicationAttemptId> out = new ArrayList<>();
    for (ApplicationId id : ids) {
      SchedulerApplicationAttempt a = attempt(id);
      if (a != null) {
        out.add(a.getApplicationAttemptId());
      }
    }
    return out;
  }

  /** The root's info, with every queue as a child. */
  QueueInfo rootInfo() {
    QueueInfo info = root.getQueueInfo(false, false);
    info.setQueueName("root");
    info.setQueuePath("root");
    List<QueueInfo> children = new ArrayList<>();
    queues.values().forEach(q -> children.add(q.getQueueInfo(false, false)));
    info.setChildQueues(children);
    info.setQueueState(QueueState.RUNNING);
    return info;
  }

  private SchedulerApplicationAttempt attempt(ApplicationId id) {
    SchedulerApplication<?> app = apps.apply(id);
    return app == null ? null : app.getCurrentAppAttempt();
  }

  /** Whether {@code caller} administers {@code queue}; any thread. */
  boolean administers(UserGroupInformation caller, String queue) {
    HareQueue q = queue == null ? null : queues.get(queue);
    return q != null && q.hasAccess(QueueACL.ADMINISTER_QUEUE, caller);
  }

  private Resource usedByAll() {
    Resource total = Resources.createResource(0, 0);
    for (HareQueue q : queues.values()) {
      Resources.addTo(total, q.getMetrics().getAllocatedResources());
    }
    return total;
  }
}
