package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.JobStop;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.util.Records;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** {@code hare status} and {@code hare kill} against an in-memory ResourceManager. */
public class StatusKillTest {

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

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

  /** A detached job's AM killed too fast to delete its keytab: the kill does it. */
  @Test(timeout = 60_000)
  public void killDeletesAKeytabStillStagedForTheJob() throws Exception {
    running(0.5f);
    java.nio.file.Path staging = tmp.newFolder("staging").toPath();
    java.nio.file.Path work = Files.createDirectories(staging.resolve(id.toString()));
    java.nio.file.Path keytab = Files.writeString(work.resolve("hare-am.keytab"), "bytes");
    java.nio.file.Path spec = Files.writeString(work.resolve("hare-job.xml"), "<configuration/>");
    AppCliRun r = AppCliRun.run(yarn, "kill", id.toString(), "-D",
        AppKeys.JOB_STAGING_DIR + "=" + staging, "-D", "fs.defaultFS=file:///");
    assertEquals(r.toString(), 0, r.code);
    assertEquals(List.of(id), yarn.killed);
    assertFalse(Files.exists(keytab));
    assertTrue("only the keytab: the job's files stay", Files.exists(spec));
    assertTrue(r.toString(), r.out.contains("deleted its staged keytab"));

    AppCliRun again = AppCliRun.run(yarn, "kill", id.toString(), "-D",
        AppKeys.JOB_STAGING_DIR + "=" + staging, "-D", "fs.defaultFS=file:///");
    assertEquals(again.toString(), 0, again.code);
    assertFalse("nothing to delete the second time: " + again,
        again.out.contains("deleted its staged keytab"));
  }
}
