package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.yarn.api.records.QueueACL;

/**
 * The ACLs of a queue, in YARN's {@link AccessControlList} syntax ("users groups",
 * {@code *} everyone), from {@code yarn.scheduler.hare.queue.<queue>.acl-submit-applications} and
 * {@code ...acl-administer-queue}; both default to {@code *}, like the CapacityScheduler's root
 * queue. Whether they are enforced is YARN's {@code yarn.acl.enable}: the RM's
 * {@code ApplicationACLsManager} and {@code GenericQueueACLsManager} ask
 * {@link HareScheduler#checkAccess}, which answers from here. Immutable.
 *
 * @param submit who may submit applications
 * @param administer who administers the queue (kill or modify any application in it)
 */
record QueueAcls(AccessControlList submit, AccessControlList administer) {

  /** Everyone may do everything. */
  static QueueAcls open() {
    return new QueueAcls(new AccessControlList("*"), new AccessControlList("*"));
  }

  static QueueAcls read(PolicyConfig t) {
    return read(t, SchedulerKeys.QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS,
        SchedulerKeys.QUEUE_DEFAULT_ACL_ADMINISTER_QUEUE);
  }

  /** A queue's ACLs from its two keys; both default to {@code *}. */
  static QueueAcls read(PolicyConfig t, String submitKey, String administerKey) {
    return new QueueAcls(
        acl(t, submitKey, SchedulerKeys.DEFAULT_QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS),
        acl(t, administerKey, SchedulerKeys.DEFAULT_QUEUE_DEFAULT_ACL_ADMINISTER_QUEUE));
  }

  private static AccessControlList acl(PolicyConfig t, String key, String def) {
    // not getString: it trims, and " " (no one) is a meaningful ACL
    String v = t.values().getOrDefault(key, def);
    if (v.strip().split("\\s+").length > 2) {
      t.addProblem(key + ": must be an ACL 'user1,user2 group1,group2' (one space between the"
          + " user list and the group list), '*' or ' ', got '" + v + "'");
      return new AccessControlList(def);
    }
    return new AccessControlList(v);
  }

  /** Whether {@code user} holds {@code acl} on the queue. */
  boolean allows(QueueACL acl, UserGroupInformation user) {
    return switch (acl) {
      case SUBMIT_APPLICATIONS -> submit.isUserAllowed(user);
      case ADMINISTER_QUEUE -> administer.isUserAllowed(user);
    };
  }

  /** The ACLs {@code user} holds, for {@code yarn queue -showacls} style listings. */
  List<QueueACL> of(UserGroupInformation user) {
    List<QueueACL> out = new ArrayList<>();
    for (QueueACL acl : QueueACL.values()) {
      if (allows(acl, user)) {
        out.add(acl);
      }
    }
    return out;
  }
}
