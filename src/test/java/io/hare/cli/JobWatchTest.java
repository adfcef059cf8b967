package io.hare.cli;

import static org.junit.Assert.assertEquals;

import io.hare.yarn.app.JobStop;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.util.Records;
import org.junit.Test;

/** The progress line: state, a bar of rounds done, and the task containers running. */
public class JobWatchTest {

  private static ApplicationReport report(YarnApplicationState state, float progress,
      int containers) {
    ApplicationReport r = Records.newRecord(ApplicationReport.class);
    r.setApplicationId(ApplicationId.newInstance(1700000000000L, 7));
    r.setYarnApplicationState(state);
    r.setFinalApplicationStatus(state == YarnApplicationState.FINISHED
        ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.UNDEFINED);
    r.setProgress(progress);
    ApplicationResourceUsageReport u = Records.newRecord(ApplicationResourceUsageReport.class);
    u.setNumUsedContainers(containers);
    r.setApplicationResourceUsageReport(u);
    return r;
  }

  @Test(timeout = 60_000)
  public void runningJobShowsItsTaskContainersButNotTheAm() {
    // 3 containers = the AM + 2 tasks; 5 of 8 rounds = 12.5 of 20 steps, 12 drawn
    assertEquals("application_1700000000000_0007 RUNNING: [############........] 5 of 8 rounds"
        + " done, 2 tasks running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 5f / 8, 3), 8, -1));
    assertEquals("application_1700000000000_0007 RUNNING: [....................] 0 of 8 rounds"
        + " done, 0 tasks running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 0, 1), 8, -1));
  }

  @Test(timeout = 60_000)
  public void endedOrUnknownSizeJobsShowNoTaskCount() {
    assertEquals("application_1700000000000_0007 FINISHED (SUCCEEDED): [####################]"
        + " 8 of 8 rounds done",
        JobWatch.line(report(YarnApplicationState.FINISHED, 1, 0), 8, -1));
    // without the number of rounds: the AM's progress as a percentage
    assertEquals("application_1700000000000_0007 RUNNING: 40% done, 1 task running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 0.4f, 2), 0, -1));
  }

  @Test(timeout = 60_000)
  public void aFailedJobSaysTheRoundsItsAmFinishedNotYarnsProgressOfOne() {
    // YARN reports progress 1 for any ended job; the AM's mark is the truth
    ApplicationReport r = report(YarnApplicationState.FINISHED, 1, 0);
    r.setFinalApplicationStatus(FinalApplicationStatus.FAILED);
    r.setDiagnostics("round 3 task 3 failed 3 times; last attempt: exit code 1 "
        + new JobStop(3, 8, 3, 1, 4).mark());
    assertEquals("application_1700000000000_0007 FINISHED (FAILED): [#######.............] 3 of"
        + " 8 rounds done; stopped in round 3 with 1 of 4 tasks done",
        JobWatch.line(r, 8, 3));
  }

  @Test(timeout = 60_000)
  public void withoutTheAmsMarkAnEndedJobShowsOnlyWhatWasSeen() {
    ApplicationReport killed = report(YarnApplicationState.KILLED, 1, 0);
    killed.setFinalApplicationStatus(FinalApplicationStatus.KILLED);
    assertEquals("application_1700000000000_0007 KILLED (KILLED): [#####...............] at"
        + " least 2 of 8 rounds done (the last report before the end)",
        JobWatch.line(killed, 8, 2));
    assertEquals("application_1700000000000_0007 KILLED (KILLED): rounds done not known (its"
        + " ApplicationMaster did not say; YARN reports no progress for an ended job)",
        JobWatch.line(killed, 8, -1));
  }

  @Test(timeout = 60_000)
  public void roundsDoneNeverGoBackWhileANewAttemptStarts() {
    // a new AM attempt reports 0 until it has read the checkpoint
    assertEquals("application_1700000000000_0007 RUNNING: [#####...............] 2 of 8 rounds"
        + " done, 0 tasks running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 0, 1), 8, 2));
  }
}
