package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.hare.HareKeys;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.security.Groups;
import org.apache.hadoop.yarn.api.protocolrecords.GetQueueInfoRequest;
import org.apache.hadoop.yarn.api.protocolrecords.MoveApplicationAcrossQueuesRequest;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.junit.Test;

/**
 * Several queues through a running RM, as a user and an admin meet them: {@code -queue} at
 * submission, {@code yarn queue -status}, mappings, the application and user limits,
 * {@code -movetoqueue}, per-queue metrics and {@code -refreshQueues}.
 */
public class QueuesTest extends MockRmTestCase {

  private static final String Q = SchedulerKeys.QUEUE_PREFIX;

  /** Queues a (0.75 of the GPUs) and b (0.25, at most 0.5). */
  private static YarnConfiguration twoQueues() {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.QUEUES, "a,b");
    conf.set(Q + "a.guaranteed-gpu-share", "0.75");
    conf.set(Q + "b.guaranteed-gpu-share", "0.25");
    conf.set(Q + "b.maximum-gpu-share", "0.5");
    return conf;
  }

  private RMApp submit(String user, String queue, boolean waitAccepted) throws Exception {
    MockRMAppSubmissionData.Builder b = MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withUser(user).withWaitForAppAcceptedState(waitAccepted);
    if (queue != null) {
      b.withQueue(queue);
    }
    return MockRMAppSubmitter.submit(h.rm, b.build());
  }

  private QueueInfo status(String queue) throws Exception {
    return h.rm.getClientRMService().getQueueInfo(
        GetQueueInfoRequest.newInstance(queue, true, false, false)).getQueueInfo();
  }

  private void move(RMApp app, String queue) throws Exception {
    h.rm.getClientRMService().moveApplicationAcrossQueues(
        MoveApplicationAcrossQueuesRequest.newInstance(app.getApplicationId(), queue));
  }

  private QueueMetrics metrics(String path) {
    return QueueMetrics.forQueue(path, null, false, h.rm.getConfig()); // the registered one
  }

  @Test(timeout = 300_000)
  public void queueStatusSharesAndMetricsPerQueue() throws Exception {
    h = HareRm.start(twoQueues());
    MockNM nm = h.node("h1:1234", 4);
    QueueInfo a = status("a");
    assertEquals(0.75f, a.getCapacity(), 1e-6);
    assertEquals(1.0f, a.getMaximumCapacity(), 1e-6);
    assertEquals(0.5f, status("b").getMaximumCapacity(), 1e-6);
    assertEquals("default keeps what the others leave", 0f, status("default").getCapacity(),
        1e-6);
    List<String> children = status("root").getChildQueues().stream()
        .map(QueueInfo::getQueueName).toList();
    assertEquals(List.of("default", "a", "b"), children);
    // as for CapacityScheduler: the RM logs the scheduler's refusal and answers no queue, which
    // `yarn queue -status` reports as "Cannot get queue from RM by queueName = nope"
    assertEquals(null, status("nope"));
    try {
      h.scheduler().getQueueInfo("nope", false, false);
      fail("an unknown queue answered");
    } catch (Exception e) {
      assertTrue(e.toString(), e instanceof IOException
          && e.getMessage().contains("Unknown queue: nope; Hare's queues are [default, a, b]"));
    }

    RMApp app = submit("alice", "b", true);
    MockAM am = h.launch(app, nm);
    HareRm.askGpuTasks(am, 1);
    assertEquals(1, h.heartbeatAndPull(am, nm).size());
    assertEquals("b", app.getQueue());
    assertEquals("1 of 4 GPUs is the dominant share, over b's 0.25", 1.0f,
        status("b").getCurrentCapacity(), 1e-6);
    assertEquals(1, metrics("root.b").getAppsSubmitted());
    assertEquals("AM and task", 2048, metrics("root.b").getAllocatedMB());
    assertEquals(0, metrics("root.a").getAllocatedMB());
    assertEquals("the root sums its queues", 2048,
        h.scheduler().getRootQueueMetrics().getAllocatedMB());
    assertEquals(1, h.scheduler().getAppsInQueue("b").size());
    assertEquals(0, h.scheduler().getAppsInQueue("a").size());
    assertEquals("each queue's ACLs", 3, h.scheduler().getQueueUserAclInfo().size());
    // the scheduler REST answer (/ws/v1/hare/scheduler) lists the queues
    assertEquals(List.of(
        new SchedulerReport.QueueLine("default", 0, 1, 0, 4, 0, 0),
        new SchedulerReport.QueueLine("a", 0.75, 1, 3, 4, 0, 0),
        new SchedulerReport.QueueLine("b", 0.25, 0.5, 1, 2, 1, 0)),
        h.scheduler().report().queues());
  }

  @Test(timeout = 300_000)
  public void mappingsPlaceUsersAndGroupsSubmittedToDefault() throws Exception {
    YarnConfiguration conf = twoQueues();
    conf.set("hadoop.user.group.static.mapping.overrides", "bob=vision;carol=other");
    conf.set(SchedulerKeys.QUEUE_MAPPINGS, "u:alice:a,g:vision:b");
    Groups.getUserToGroupsMappingServiceWithLoadedConfiguration(conf);
    h = HareRm.start(conf);
    h.node("h1:1234", 4);
    assertEquals("a", submit("alice", null, true).getQueue());
    assertEquals("b", submit("bob", "default", true).getQueue());
    assertEquals("default", submit("carol", null, true).getQueue());
    assertEquals("a queue named is not mapped", "b", submit("alice", "b", true).getQueue());
    assertEquals(1, metrics("root.a").getAppsSubmitted());
  }

  @Test(timeout = 300_000)
  public void applicationAndUserLimits() throws Exception {
    YarnConfiguration conf = twoQueues();
    conf.set(Q + "a.maximum-applications", "3");
    conf.set(Q + "a.user-limit", "1");
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    RMApp first = submit("alice", "a", true);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    h.rm.waitForState(first.getCurrentAppAttempt().getAppAttemptId(),
        RMAppAttemptState.ALLOCATED);
    RMApp second = submit("alice", "a", true);
    RMApp bobs = submit("bob", "a", true);
    RMApp fourth = submit("carol", "a", false);
    h.rm.waitForState(fourth.getApplicationId(), RMAppState.FAILED);
    String why = fourth.getDiagnostics().toString();
    assertTrue(why, why.contains("queue a already holds 3 applications, its maximum"
        + " (yarn.scheduler.hare.queue.a.maximum-applications = 3)"));

    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    h.rm.waitForState(bobs.getCurrentAppAttempt().getAppAttemptId(),
        RMAppAttemptState.ALLOCATED); // another user is not held back
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    assertEquals("alice runs one application in a: her second AM waits",
        RMAppAttemptState.SCHEDULED, second.getCurrentAppAttempt().getAppAttemptState());

    h.rm.killApp(first.getApplicationId());
    h.rm.waitForState(first.getApplicationId(), RMAppState.KILLED);
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    h.rm.waitForState(second.getCurrentAppAttempt().getAppAttemptId(),
        RMAppAttemptState.ALLOCATED);
  }

  @Test(timeout = 300_000)
  public void moveToQueueKeepsTheRules() throws Exception {
    YarnConfiguration conf = twoQueues();
    conf.set(Q + "b.maximum-applications", "1");
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    RMApp x = submit("alice", "a", true);
    MockAM am = h.launch(x, nm);
    HareRm.askGpuTasks(am, 1);
    assertEquals(1, h.heartbeatAndPull(am, nm).size());
    try {
      move(x, "nope");
      fail("moved to an unknown queue");
    } catch (YarnException e) { // the RM's own check of the caller's rights comes first
      assertTrue(e.getMessage(), e.getMessage().contains("target queue doesn't exist: nope"));
    }
    try {
      h.scheduler().preValidateMoveApplication(x.getApplicationId(), "nope");
      fail("moved to an unknown queue");
    } catch (YarnException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("queue 'nope' does not exist;"
          + " Hare's queues are [default, a, b]"));
    }
    move(x, "b");
    assertEquals("b", x.getQueue());
    assertEquals(1, h.scheduler().getAppsInQueue("b").size());
    assertEquals("the AM and the task moved", 2048, metrics("root.b").getAllocatedMB());
    assertEquals(0, metrics("root.a").getAllocatedMB());
    assertEquals(2048, h.scheduler().getRootQueueMetrics().getAllocatedMB());

    RMApp y = submit("alice", "a", true);
    try {
      move(y, "b");
      fail("moved past b's maximum-applications");
    } catch (YarnException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("queue b holds 1 applications, its"
          + " maximum (yarn.scheduler.hare.queue.b.maximum-applications)"));
    }
    assertEquals("a", y.getQueue());
  }

  @Test(timeout = 300_000)
  public void aRefreshThatIsBadOrDropsABusyQueueKeepsTheOldQueues() throws Exception {
    YarnConfiguration conf = twoQueues();
    h = HareRm.start(conf);
    h.node("h1:1234", 4);
    submit("alice", "b", true);
    HareScheduler s = h.scheduler();

    YarnConfiguration dropsB = new YarnConfiguration(conf);
    dropsB.set(SchedulerKeys.QUEUES, "a");
    dropsB.unset(Q + "b.guaranteed-gpu-share");
    dropsB.unset(Q + "b.maximum-gpu-share");
    try {
      s.reinitialize(dropsB, h.rm.getRMContext());
      fail("dropped a queue with an application");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("cannot drop queues that hold"
          + " applications: b (1 applications)"));
    }
    YarnConfiguration bad = new YarnConfiguration(conf);
    bad.set(Q + "a.guaranteed-gpu-share", "0.9");
    bad.set(Q + "b.user-limit", "0");
    try {
      s.reinitialize(bad, h.rm.getRMContext());
      fail("took a bad file");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("must sum to at most 1"));
      assertTrue(e.getMessage(), e.getMessage().contains("queue.b.user-limit"));
    }
    assertEquals("the old queues stay", 0.75f, status("a").getCapacity(), 1e-6);

    YarnConfiguration addsC = new YarnConfiguration(conf);
    addsC.set(SchedulerKeys.QUEUES, "a,b,c");
    addsC.set(Q + "a.guaranteed-gpu-share", "0.5");
    addsC.set(Q + "c.guaranteed-gpu-share", "0.25");
    s.reinitialize(addsC, h.rm.getRMContext());
    assertEquals(0.5f, status("a").getCapacity(), 1e-6);
    assertEquals(0.25f, status("c").getCapacity(), 1e-6);
    assertEquals("c", submit("bob", "c", true).getQueue());
    assertEquals(Set.of("default", "a", "b", "c"), Set.copyOf(status("root").getChildQueues()
        .stream().map(QueueInfo::getQueueName).toList()));
  }
  @Test(timeout = 300_000)
  public void planDispatchIsRefusedWithSeveralQueuesAtStartAndAtARefresh() throws Exception {
    YarnConfiguration plan = twoQueues();
    plan.set(HareKeys.DISPATCH, "plan");
    String why = SchedulerKeys.QUEUES + ": " + HareKeys.DISPATCH
        + "=plan cannot serve several queues";
    try {
      HareSettings.read(plan);
      fail("dispatch=plan with two queues accepted");
    } catch (ConfigException e) {
      assertTrue(e.problems().toString(),
          e.problems().stream().anyMatch(p -> p.startsWith(why) && p.contains("=priority")));
    }
    YarnConfiguration alone = HareRm.conf();
    alone.set(HareKeys.DISPATCH, "plan");
    h = HareRm.start(alone);
    // the refreshed file asks for priority dispatch, but a refresh keeps the running policy
    YarnConfiguration queues = twoQueues();
    try {
      h.scheduler().reinitialize(queues, h.rm.getRMContext());
      fail("two queues refreshed under a policy following a plan");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(why));
    }
    assertEquals("default alone stays", List.of(), status("root").getChildQueues().stream()
        .map(QueueInfo::getQueueName).filter(q -> !q.equals("default")).toList());
  }

  @Test(timeout = 300_000)
  public void aRefreshTurnsAQueueToPerTypeGuaranteesButNotToBothKinds() throws Exception {
    YarnConfiguration conf = twoQueues();
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    h.setType("h1", "v100");
    nm.nodeHeartbeat(true); // the scheduler counts the node's GPUs by type at a heartbeat
    h.rm.drainEvents();
    HareScheduler s = h.scheduler();

    YarnConfiguration both = new YarnConfiguration(conf);
    both.set(Q + "a.guaranteed-gpu-share.v100", "0.5");
    try {
      s.reinitialize(both, h.rm.getRMContext());
      fail("took a queue with both kinds of guarantee");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("not both"));
    }
    assertEquals("the old queues stay", 0.75f, status("a").getCapacity(), 1e-6);

    YarnConfiguration perType = new YarnConfiguration(conf);
    perType.unset(Q + "a.guaranteed-gpu-share");
    perType.set(Q + "a.guaranteed-gpu-share.v100", "0.5");
    s.reinitialize(perType, h.rm.getRMContext());
    assertEquals("2 of the 4 V100s, over the fleet's 4 GPUs", 0.5f, status("a").getCapacity(),
        1e-6);
    assertEquals(0.25f, status("b").getCapacity(), 1e-6);
  }

  @Test(timeout = 300_000)
  public void guaranteesOfBothKindsThatPromiseMoreThanTheGpusAreReported() throws Exception {
    YarnConfiguration conf = twoQueues();
    conf.unset(Q + "a.guaranteed-gpu-share");
    conf.set(Q + "a.guaranteed-gpu-share.v100", "0.5");
    h = HareRm.start(conf);
    MockNM nm = h.node("h1:1234", 4);
    h.setType("h1", "v100");
    nm.nodeHeartbeat(true);
    h.rm.drainEvents();
    HareScheduler s = h.scheduler();
    assertEquals("2 V100s and 1 of the 4 GPUs fit", Optional.empty(),
        s.report().queueWarning());

    YarnConfiguration more = new YarnConfiguration(conf);
    more.set(Q + "b.guaranteed-gpu-share", "0.75");
    more.set(Q + "b.maximum-gpu-share", "1");
    s.reinitialize(more, h.rm.getRMContext()); // each kind alone is valid
    String w = s.report().queueWarning().orElseThrow();
    assertTrue(w, w.contains("add up to 5 GPUs on a cluster of 4"));
    MockNM second = h.node("h2:1234", 4); // 8 V100s: a 4 of them, b 6 of the fleet
    h.setType("h2", "v100");
    second.nodeHeartbeat(true);
    h.rm.drainEvents();
    w = s.report().queueWarning().orElseThrow();
    assertTrue(w, w.contains("add up to 10 GPUs on a cluster of 8"));

    s.reinitialize(conf, h.rm.getRMContext());
    assertEquals(Optional.empty(), s.report().queueWarning());
  }
}
