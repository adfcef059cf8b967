package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.scheduler.web.Prediction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.util.Records;
import org.junit.Test;

/** {@code hare status} prints the scheduler's predicted completion of a job that has not ended. */
public class StatusPredictionTest {

  private final FakeYarnApps yarn = new FakeYarnApps();
  private final ApplicationId id = ApplicationId.newInstance(1700000000000L, 3);
  private final List<ApplicationId> asked = new ArrayList<>();

  private void job(YarnApplicationState state, FinalApplicationStatus status) {
    ApplicationSubmissionContext c = Records.newRecord(ApplicationSubmissionContext.class);
    c.setApplicationId(id);
    c.setApplicationName("mnist");
    c.setApplicationTags(Set.of("hare.rounds=10", "hare.tasks-per-round=2"));
    yarn.submitted.put(id, c);
    yarn.script(id, new FakeYarnApps.Step(state, status, 0.3f, ""));
  }

  private StatusCommand.Predictions answering(Prediction p) {
    return (conf, app) -> {
      asked.add(app);
      return p;
    };
  }

  @Test(timeout = 60_000)
  public void aRunningJobGetsItsPrediction() {
    job(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED);
    AppCliRun r = AppCliRun.run(yarn,
        answering(new Prediction(60_000, OptionalLong.of(300_000), "estimate")), "status",
        id.toString());
    assertEquals(r.toString(), 0, r.code);
    assertEquals(List.of(id), asked);
    assertTrue(r.toString(), r.out.contains(
        "\n  predicted completion: 1970-01-01T00:05:00Z (in 4m 0s), an estimate\n"));
  }

  @Test(timeout = 60_000)
  public void noPredictionOrNoAnswerIsSaidAndTheStatusStands() {
    job(YarnApplicationState.ACCEPTED, FinalApplicationStatus.UNDEFINED);
    AppCliRun none = AppCliRun.run(yarn, answering(new Prediction(0, OptionalLong.empty(),
        "no forecast: policy hlas makes none")), "status", id.toString());
    assertEquals(none.toString(), 0, none.code);
    assertTrue(none.toString(), none.out.contains(
        "  predicted completion: none (no forecast: policy hlas makes none)\n"));
    job(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED);
    AppCliRun down = AppCliRun.run(yarn, (conf, app) -> {
      throw new IOException("http://rm:8088/ws/v1/hare/scheduler answered HTTP 404");
    }, "status", id.toString());
    assertEquals(down.toString(), 0, down.code);
    assertTrue(down.toString(), down.out.contains("  predicted completion: unavailable "
        + "(http://rm:8088/ws/v1/hare/scheduler answered HTTP 404)\n"));
  }

  @Test(timeout = 60_000)
  public void anEndedJobHasNone() {
    job(YarnApplicationState.FINISHED, FinalApplicationStatus.SUCCEEDED);
    AppCliRun r = AppCliRun.run(yarn,
        answering(new Prediction(0, OptionalLong.of(1), "estimate")), "status", id.toString());
    assertEquals(r.toString(), 0, r.code);
    assertTrue("not asked", asked.isEmpty());
    assertFalse(r.toString(), r.out.contains("predicted completion"));
  }
}
