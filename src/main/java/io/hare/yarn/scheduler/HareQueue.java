package io.hare.yarn.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.security.UserGroupInformation;
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

/**
 * The one queue, {@code default}, every application runs in, as in YARN's FifoScheduler: open
 * to everyone ({@code *} ACLs), its {@link QueueMetrics} the root metrics the RM UI and REST
 * show; its used capacity is the dominant share ({@link #dominantShare}). Its ACLs are the admin's ({@link QueueAcls}), replaced on refresh.
 */
final class HareQueue implements Queue {

  static final String NAME = "default";

  private final QueueMetrics metrics;
  private final ActiveUsersManager users;
  private final Supplier<Resource> cluster;
  private final Supplier<Resource> used;
  private volatile QueueAcls acls = QueueAcls.open();

  HareQueue(QueueMetrics metrics, Supplier<Resource> cluster, Supplier<Resource> used) {
    this.metrics = metrics;
    this.users = new ActiveUsersManager(metrics);
    this.cluster = cluster;
    this.used = used;
  }

  @Override
  public String getQueueName() {
    return NAME;
  }

  @Override
  public QueueMetrics getMetrics() {
    return metrics;
  }

  @Override
  public QueueInfo getQueueInfo(boolean includeChildQueues, boolean recursive) {
    QueueInfo info = Records.newRecord(QueueInfo.class);
    info.setQueueName(NAME);
    info.setQueuePath(NAME);
    info.setCapacity(1.0f);
    info.setMaximumCapacity(1.0f);
    info.setCurrentCapacity(dominantShare(used.get(), cluster.get()));
    info.setChildQueues(new ArrayList<>());
    info.setQueueState(QueueState.RUNNING);
    return info;
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

  void setAcls(QueueAcls acls) {
    this.acls = acls;
  }

  @Override
  public List<QueueUserACLInfo> getQueueUserAclInfo(UserGroupInformation user) {
    QueueUserACLInfo info = Records.newRecord(QueueUserACLInfo.class);
    info.setQueueName(NAME);
    info.setUserAcls(user == null ? List.of(QueueACL.values()) : acls.of(user));
    return List.of(info);
  }

  @Override
  public boolean hasAccess(QueueACL acl, UserGroupInformation user) {
    return acls.allows(acl, user);
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
