package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.SchedulerKeys;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.FailApplicationAttemptRequest;
import org.apache.hadoop.yarn.api.protocolrecords.GetQueueUserAclsInfoRequest;
import org.apache.hadoop.yarn.api.protocolrecords.KillApplicationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.UpdateApplicationPriorityRequest;
import org.apache.hadoop.yarn.api.protocolrecords.UpdateApplicationTimeoutsRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationTimeoutType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.util.Times;
import org.junit.Test;

/**
 * Admin policy through a running RM: queue ACLs with YARN's semantics (yarn.acl.enable,
 * yarn.admin.acl, the default queue's submit and administer ACLs) and weight caps per user and
 * per queue.
 */
public class HareAdminTest extends MockRmTestCase {

  /** ACLs on: alice and bob may submit, qadmin administers the queue, yarnadmin is YARN admin. */
  private static YarnConfiguration withAcls() {
    YarnConfiguration conf = HareRm.conf();
    conf.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, true);
    conf.set(YarnConfiguration.YARN_ADMIN_ACL, "yarnadmin");
    conf.set(SchedulerKeys.QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS, "alice,bob");
    conf.set(SchedulerKeys.QUEUE_DEFAULT_ACL_ADMINISTER_QUEUE, "qadmin");
    return conf;
  }

  private RMApp submitAs(String user, boolean waitAccepted, String queue, String... tags)
      throws Exception {
    MockRMAppSubmissionData.Builder b = MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withUser(user).withApplicationTags(Set.of(tags))
        .withWaitForAppAcceptedState(waitAccepted);
    if (queue != null) {
      b.withQueue(queue);
    }
    return MockRMAppSubmitter.submit(h.rm, b.build());
  }

  private void killAs(String user, RMApp app) throws Exception {
    try {
      UserGroupInformation.createRemoteUser(user).doAs((PrivilegedExceptionAction<Object>) () ->
          h.rm.getClientRMService().forceKillApplication(
              KillApplicationRequest.newInstance(app.getApplicationId())));
    } catch (UndeclaredThrowableException e) { // doAs wraps the RPC's YarnException
      throw (Exception) e.getCause();
    }
  }

  @Test(timeout = 300_000)
  public void aUserNotInTheSubmitAclIsRefused() throws Exception {
    h = HareRm.start(withAcls());
    h.node("h1:1234", 1);
    RMApp denied = submitAs("carol", false, null);
    h.rm.waitForState(denied.getApplicationId(), RMAppState.FAILED);
    String diagnostics = denied.getDiagnostics().toString();
    assertTrue(diagnostics, diagnostics.contains("User carol does not have permission to submit"));
    submitAs("alice", true, null); // in the ACL: accepted
    submitAs("qadmin", true, null); // queue admins may submit, as in YARN
  }

  @Test(timeout = 300_000)
  public void onlyTheOwnerAndAdminsMayKillAnApplication() throws Exception {
    h = HareRm.start(withAcls());
    h.node("h1:1234", 1);
    RMApp a1 = submitAs("alice", true, null);
    try {
      killAs("bob", a1);
      fail("bob killed alice's application");
    } catch (YarnException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("User bob cannot perform operation"
          + " MODIFY_APP"));
    }
    assertEquals(RMAppState.ACCEPTED, a1.getState());
    killAs("yarnadmin", a1); // yarn.admin.acl
    h.rm.waitForState(a1.getApplicationId(), RMAppState.KILLED);
    RMApp a2 = submitAs("alice", true, null);
    killAs("qadmin", a2); // administer-queue ACL
    h.rm.waitForState(a2.getApplicationId(), RMAppState.KILLED);
    RMApp a3 = submitAs("alice", true, null);
    killAs("alice", a3); // the owner
    h.rm.waitForState(a3.getApplicationId(), RMAppState.KILLED);
  }

  /** A modification of an application, done as some user through the ClientRMService. */
  private interface Modify {
    void as(String user, RMApp app) throws Exception;
  }

  private void as(String user, PrivilegedExceptionAction<Object> call) throws Exception {
    try {
      UserGroupInformation.createRemoteUser(user).doAs(call);
    } catch (UndeclaredThrowableException e) { // doAs wraps the RPC's YarnException
      throw (Exception) e.getCause();
    }
  }

  private void setPriority(String user, RMApp app) throws Exception {
    as(user, () -> h.rm.getClientRMService().updateApplicationPriority(
        UpdateApplicationPriorityRequest.newInstance(app.getApplicationId(),
            Priority.newInstance(3))));
  }

  private void setLifetime(String user, RMApp app) throws Exception {
    String in1h = Times.formatISO8601(System.currentTimeMillis() + 3_600_000);
    as(user, () -> h.rm.getClientRMService().updateApplicationTimeouts(
        UpdateApplicationTimeoutsRequest.newInstance(app.getApplicationId(),
            Map.of(ApplicationTimeoutType.LIFETIME, in1h))));
  }

  private void failAttempt(String user, RMApp app) throws Exception {
    as(user, () -> h.rm.getClientRMService().failApplicationAttempt(
        FailApplicationAttemptRequest.newInstance(app.getCurrentAppAttempt().getAppAttemptId())));
  }

  /**
   * With ACLs on, another user may not change an application's priority or lifetime or fail its
   * attempt (YARN's MODIFY_APP check, answered by Hare's queue ACLs); the owner, a queue admin
   * and a YARN admin may, but a priority Hare refuses whoever asks, naming what it orders by.
   */
  @Test(timeout = 300_000)
  public void onlyTheOwnerAndAdminsMayModifyAnApplication() throws Exception {
    h = HareRm.start(withAcls());
    h.node("h1:1234", 1);
    RMApp app = submitAs("alice", true, null);
    Map<String, Modify> ops = new java.util.LinkedHashMap<>();
    ops.put("priority", this::setPriority);
    ops.put("lifetime", this::setLifetime);
    ops.put("fail attempt", this::failAttempt);
    for (Map.Entry<String, Modify> op : ops.entrySet()) {
      try {
        op.getValue().as("bob", app);
        fail("bob changed alice's application: " + op.getKey());
      } catch (YarnException e) {
        assertTrue(op.getKey() + ": " + e.getMessage(), e.getMessage().contains(
            "User bob cannot perform operation MODIFY_APP on " + app.getApplicationId()));
      }
    }
    assertEquals("bob changed nothing", null,
        app.getApplicationTimeouts().get(ApplicationTimeoutType.LIFETIME));
    for (String user : List.of("alice", "qadmin", "yarnadmin")) {
      // past the ACL, Hare refuses a YARN priority by name rather than answer 0 and ignore it
      YarnException refused = assertThrows(YarnException.class, () -> setPriority(user, app));
      assertTrue(refused.getMessage(), refused.getMessage().startsWith("the Hare scheduler does"
          + " not order applications by YARN priority (asked: 3 for "
          + app.getApplicationId() + "); a Hare job's place comes from its weight"));
      assertEquals(0, app.getApplicationPriority().getPriority());
      setLifetime(user, app);
    }
    assertTrue(app.getApplicationTimeouts().containsKey(ApplicationTimeoutType.LIFETIME));
    ApplicationAttemptId first = app.getCurrentAppAttempt().getAppAttemptId();
    failAttempt("qadmin", app);
    h.rm.waitForState(first, RMAppAttemptState.FAILED);
  }

  @Test(timeout = 300_000)
  public void queueAclsAreReportedPerCaller() throws Exception {
    h = HareRm.start(withAcls());
    assertEquals(List.of(QueueACL.SUBMIT_APPLICATIONS), aclsOf("alice"));
    // each ACL as configured; a queue admin may still submit (checked as YARN does)
    assertEquals(List.of(QueueACL.ADMINISTER_QUEUE), aclsOf("qadmin"));
    assertEquals(List.of(), aclsOf("carol"));
    HareScheduler s = h.scheduler();
    assertTrue(s.checkAccess(UserGroupInformation.createRemoteUser("bob"),
        QueueACL.SUBMIT_APPLICATIONS, "default"));
    assertTrue(!s.checkAccess(UserGroupInformation.createRemoteUser("bob"),
        QueueACL.ADMINISTER_QUEUE, "default"));
  }

  private List<QueueACL> aclsOf(String user) throws Exception {
    List<QueueUserACLInfo> infos = UserGroupInformation.createRemoteUser(user).doAs(
        (PrivilegedExceptionAction<List<QueueUserACLInfo>>) () -> h.rm.getClientRMService()
            .getQueueUserAcls(GetQueueUserAclsInfoRequest.newInstance()).getUserAclsInfoList());
    assertEquals(1, infos.size());
    assertEquals("default", infos.get(0).getQueueName());
    return infos.get(0).getUserAcls();
  }

  @Test(timeout = 300_000)
  public void weightCapsPerUserAndPerQueue() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.WEIGHT_MAX, "8");
    conf.set(SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice", "2");
    conf.set(SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "trusted", "30");
    conf.set(SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "default", "4");
    h = HareRm.start(conf);
    h.node("h1:1234", 1);
    HareScheduler s = h.scheduler();
    assertEquals("user cap", 2, weight(submitAs("alice", true, null, "hare.weight=50")), 0);
    assertEquals("user cap above the default", 30,
        weight(submitAs("trusted", true, null, "hare.weight=50")), 0);
    assertEquals("user wins over queue", 30,
        weight(submitAs("trusted", true, "default", "hare.weight=50")), 0);
    assertEquals("queue cap", 4, weight(submitAs("bob", true, null, "hare.weight=50")), 0);
    // a queue that is not configured is refused, naming the queues there are
    RMApp elsewhere = submitAs("bob", false, "research", "hare.weight=50");
    h.rm.waitForState(elsewhere.getApplicationId(), RMAppState.FAILED);
    String why = elsewhere.getDiagnostics().toString();
    assertTrue(why, why.contains("queue 'research' does not exist; Hare's queues are [default]"));
    assertEquals("below every cap", 1.5,
        weight(submitAs("alice", true, null, "hare.weight=1.5")), 0);
    // a refresh changes the caps of applications submitted from then on
    YarnConfiguration next = new YarnConfiguration(conf);
    next.set(SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice", "3");
    s.reinitialize(next, h.rm.getRMContext());
    assertEquals(3, weight(submitAs("alice", true, null, "hare.weight=50")), 0);
  }

  private double weight(RMApp app) {
    return h.scheduler().weight(app.getApplicationId());
  }
}
