package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueState;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.util.Records;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * One of Hare's queues ({@link HareQueues}): its settings ({@link QueueSettings}, replaced on
 * refresh), its {@link QueueMetrics} (a child of the root's, as CapacityScheduler's leaf queues),
 * its applications and, per user, those running (whose AM was placed), and the limit on its
 * ApplicationMasters ({@link AmLimit}). Its used capacity is its dominant share
 * ({@link #dominantShare}) over its guaranteed share, as CapacityScheduler reports a queue's
 * used capacity relative to its capacity. Not thread-safe except the settings: the scheduler's
 * lock.
 */
final class HareQueue implements Queue {

  /** The queue every configuration has, where applications go that name no queue. */
  static final String NAME = "default";

  private final String name;
  private final QueueMetrics metrics;
  private final ActiveUsersManager users;
  private final Supplier<Resource> cluster;
  private final Supplier<Map<GpuType, Integer>> gpus;
  private final Supplier<Resource> used;
  private volatile QueueSettings settings;
  private final AmLimit amLimit;
  private final Set<ApplicationId> apps = new LinkedHashSet<>();
  private final Map<String, Set<ApplicationId>> running = new HashMap<>();

  /**
   * @param cluster the cluster's resources now
   * @param gpus the cluster's GPUs per type now, for the capacity of a queue guaranteed types
   * @param used the queue's resources in use now
   */
  HareQueue(QueueSettings settings, QueueMetrics metrics, Supplier<Resource> cluster,
      Supplier<Map<GpuType, Integer>> gpus, Supplier<Resource> used) {
    this.name = settings.name();
    this.settings = settings;
    this.metrics = metrics;
    this.users = new ActiveUsersManager(metrics);
    this.cluster = cluster;
    this.gpus = gpus;
    this.used = used;
    this.amLimit = new AmLimit(settings.amShare(),
        () -> Resources.multiply(cluster.get(), this.settings.maximumShare()));
  }

  @Override
  public String getQueueName() {
    return name;
  }

  QueueSettings settings() {
    return settings;
  }

  void setSettings(QueueSettings s) {
    settings = s;
    amLimit.setShare(s.amShare());
  }

  AmLimit amLimit() {
    return amLimit;
  }

  /** Applications admitted to the queue and not yet removed. */
  Set<ApplicationId> apps() {
    return apps;
  }

  /** Running applications of {@code user} (whose AM was placed). */
  int runningOf(String user) {
    Set<ApplicationId> r = running.get(user);
    return r == null ? 0 : r.size();
  }

  boolean isRunning(String user, ApplicationId app) {
    Set<ApplicationId> r = running.get(user);
    return r != null && r.contains(app);
  }

  void add(ApplicationId app) {
    apps.add(app);
  }

  void started(String user, ApplicationId app) {
    running.computeIfAbsent(user, u -> new HashSet<>()).add(app);
  }

  void remove(String user, ApplicationId app) {
    apps.remove(app);
    Set<ApplicationId> r = running.get(user);
    if (r != null && r.remove(app) && r.isEmpty()) {
      running.remove(user);
    }
  }

  @Override
  public QueueMetrics getMetrics() {
    return metrics;
  }

  @Override
  public QueueInfo getQueueInfo(boolean includeChildQueues, boolean recursive) {
    QueueSettings s = settings;
    QueueInfo info = Records.newRecord(QueueInfo.class);
    info.setQueueName(name);
    info.setQueuePath(name);
    double capacity = capacity(s, gpus.get());
    info.setCapacity((float) capacity);
    info.setMaximumCapacity((float) s.maximumShare());
    float share = dominantShare(used.get(), cluster.get());
    info.setCurrentCapacity(capacity > 0 ? (float) (share / capacity) : share);
    info.setChildQueues(new ArrayList<>());
    info.setQueueState(QueueState.RUNNING);
    return info;
  }

  /**
   * The queue's guarantee as a share of the fleet: its fleet share, or for a queue guaranteed
   * GPU types its guaranteed GPUs now over the fleet's GPUs (0 with no GPUs), since YARN's
   * queue status has one capacity, not one per type.
   */
  static double capacity(QueueSettings s, Map<GpuType, Integer> gpus) {
    if (s.typeShares().isEmpty()) {
      return s.guaranteedShare();
    }
    int fleet = gpus.values().stream().mapToInt(Integer::intValue).sum();
    return fleet == 0 ? 0 : (double) s.guaranteedGpus(gpus) / fleet;
  }

  /**
   * The largest share of any resource type in use ({@code yarn.io/gpu} included), as the
   * DominantResourceCalculator that places containers sees the queue; types the cluster has
   * none of are skipped. What the RM's {@code /scheduler} REST resource and web UI show as the
   * queue's used capacity: GPUs all busy reads as full even when memory is mostly free.
   */
  static float dominantShare(Resource used, Resource cluster) {
    float share = 0f;
    for (ResourceInformation total : cluster.getResources()) {
      if (total.getValue() > 0) {
        share = Math.max(share,
            (float) used.getResourceValue(total.getName()) / total.getValue());
      }
    }
    return share;
  }

  @Override
  public List<QueueUserACLInfo> getQueueUserAclInfo(UserGroupInformation user) {
    QueueUserACLInfo info = Records.newRecord(QueueUserACLInfo.class);
    info.setQueueName(name);
    info.setUserAcls(user == null ? List.of(QueueACL.values()) : settings.acls().of(user));
    return List.of(info);
  }

  @Override
  public boolean hasAccess(QueueACL acl, UserGroupInformation user) {
    return settings.acls().allows(acl, user);
  }

  @Override
  public AbstractUsersManager getAbstractUsersManager() {
    return users;
  }

  ActiveUsersManager users() {
    return users;
  }

  @Override
  public void recoverContainer(Resource clusterResource, SchedulerApplicationAttempt attempt,
      RMContainer rmContainer) {
    // usage is tracked by the attempt and the node; nothing queue-level to rebuild
  }

  @Override
  public Set<String> getAccessibleNodeLabels() {
    return null;
  }

  @Override
  public String getDefaultNodeLabelExpression() {
    return null;
  }

  @Override
  public void incPendingResource(String nodeLabel, Resource resourceToInc) {}

  @Override
  public void decPendingResource(String nodeLabel, Resource resourceToDec) {}

  @Override
  public Priority getDefaultApplicationPriority() {
    return null;
  }

  @Override
  public void incReservedResource(String partition, Resource reservedRes) {}

  @Override
  public void decReservedResource(String partition, Resource reservedRes) {}
}
