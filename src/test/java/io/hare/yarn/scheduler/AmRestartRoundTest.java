package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.apache.hadoop.yarn.api.protocolrecords.FailApplicationAttemptRequest;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.junit.Test;

/**
 * A Hare AM's new attempt runs the round its attempt before was in again, from its first task:
 * the scheduler counts that round from there, not on top of what the failed attempt finished
 * of it, or the round would look done while its redo still runs.
 */
public class AmRestartRoundTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void aNewAttemptsRoundCountsFromItsFirstTask() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    RMApp app = h.submitHare("hare.rounds=2", "hare.tasks-per-round=2");
    MockAM first = h.launch(app, nm);
    HareRm.askGpuTasks(first, 2);
    List<Container> got = h.heartbeatAndPull(first, nm);
    assertEquals(2, got.size());
    h.finish(nm, got.get(0)); // round 0's first task, counted
    ApplicationAttemptId failed = app.getCurrentAppAttempt().getAppAttemptId();
    h.rm.getClientRMService().failApplicationAttempt(
        FailApplicationAttemptRequest.newInstance(failed));
    h.rm.waitForState(failed, RMAppAttemptState.FAILED);
    h.rm.waitForState(app.getApplicationId(), RMAppState.ACCEPTED);
    h.rm.drainEvents();

    MockAM second = h.launch(app, nm);
    HareRm.askGpuTasks(second, 2); // round 0 again, from its first task
    List<Container> again = h.heartbeatAndPull(second, nm);
    assertEquals(2, again.size());
    h.finish(nm, again.get(0));
    assertEquals("one of the redone round's two tasks has ended", 0,
        h.scheduler().report().jobs().get(0).roundsDone());
    h.finish(nm, again.get(1));
    HareRm.askGpuTasks(second, 2);
    assertEquals(1, h.scheduler().report().jobs().get(0).roundsDone());
  }
}
