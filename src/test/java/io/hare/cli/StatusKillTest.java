package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.app.JobStop;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.util.Records;
import org.junit.Test;

/** {@code hare status} and {@code hare kill} against an in-memory ResourceManager. */
public class StatusKillTest {

  private final FakeYarnApps yarn = new FakeYarnApps();
  private final ApplicationId id = ApplicationId.newInstance(1700000000000L, 3);

  private void running(float progress) {
    ApplicationSubmissionContext c = Records.newRecord(ApplicationSubmissionContext.class);
    c.setApplicationId(id);
    c.setApplicationName("mnist");
    c.setQueue("research");
    c.setApplicationTags(Set.of("hare.rounds=10", "hare.tasks-per-round=2"));
    yarn.submitted.put(id, c);
    yarn.script(id, new FakeYarnApps.Step(YarnApplicationState.RUNNING,
        FinalApplicationStatus.UNDEFINED, progress, ""));
  }

  @Test(timeout = 60_000)
  public void statusShowsRoundsDone() {
    running(0.3f);
    AppCliRun r = AppCliRun.run(yarn, "status", id.toString());
    assertEquals(r.toString(), 0, r.code);
    assertTrue(r.toString(),
        r.out.startsWith(id + " RUNNING: [######..............] 3 of 10 rounds done\n"));
    assertTrue(r.toString(), r.out.contains("name: mnist, queue: research, user: alice"));
  }

  @Test(timeout = 60_000)
  public void statusOfAFailedJobSaysWhereItStoppedThenWhy() {
    running(0.3f);
    yarn.scripts.get(id).clear();
    yarn.script(id, new FakeYarnApps.Step(YarnApplicationState.FINISHED,
        FinalApplicationStatus.FAILED, 1, "sync step of round 3 exited with code 2 "
            + new JobStop(3, 10, 3, 2, 2).mark()));
    AppCliRun r = AppCliRun.run(yarn, "status", id.toString());
    assertEquals(r.toString(), 0, r.code);
    assertTrue(r.toString(), r.out.startsWith(id + " FINISHED (FAILED): [######..............]"
        + " 3 of 10 rounds done; stopped in round 3 with 2 of 2 tasks done\n"));
    assertTrue(r.toString(), r.out.contains("  diagnostics: sync step of round 3 exited with"
        + " code 2\n"));
  }

  @Test(timeout = 60_000)
  public void unknownOrMalformedIdIsBadInput() {
    AppCliRun unknown = AppCliRun.run(yarn, "status", id.toString());
    assertEquals(unknown.toString(), 2, unknown.code);
    assertTrue(unknown.toString(), unknown.err.contains("knows no application " + id));
    AppCliRun bad = AppCliRun.run(yarn, "kill", "app_17");
    assertEquals(bad.toString(), 2, bad.code);
    assertTrue(bad.toString(), bad.err.contains("'app_17' is not an application id"));
    AppCliRun none = AppCliRun.run(yarn, "kill");
    assertEquals(none.toString(), 2, none.code);
  }

  @Test(timeout = 60_000)
  public void killKillsARunningJobAndLeavesAnEndedOne() {
    running(0.5f);
    AppCliRun r = AppCliRun.run(yarn, "kill", id.toString());
    assertEquals(r.toString(), 0, r.code);
    assertEquals(List.of(id), yarn.killed);
    yarn.scripts.get(id).clear();
    yarn.script(id, new FakeYarnApps.Step(YarnApplicationState.FINISHED,
        FinalApplicationStatus.SUCCEEDED, 1, ""));
    AppCliRun again = AppCliRun.run(yarn, "kill", id.toString());
    assertEquals(again.toString(), 0, again.code);
    assertTrue(again.toString(), again.out.contains("has already ended: FINISHED (SUCCEEDED)"));
    assertEquals(1, yarn.killed.size());
  }
}
