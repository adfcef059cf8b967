package io.hare.cli;

import static org.junit.Assert.assertEquals;

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

  @Test(timeout = 10_000)
  public void runningJobShowsItsTaskContainersButNotTheAm() {
    // 3 containers = the AM + 2 tasks; 5 of 8 rounds = 12.5 of 20 steps, 12 drawn
    assertEquals("application_1700000000000_0007 RUNNING: [############........] 5 of 8 rounds"
        + " done, 2 tasks running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 5f / 8, 3), 8));
    assertEquals("application_1700000000000_0007 RUNNING: [....................] 0 of 8 rounds"
        + " done, 0 tasks running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 0, 1), 8));
  }

  @Test(timeout = 10_000)
  public void endedOrUnknownSizeJobsShowNoTaskCount() {
    assertEquals("application_1700000000000_0007 FINISHED (SUCCEEDED): [####################]"
        + " 8 of 8 rounds done",
        JobWatch.line(report(YarnApplicationState.FINISHED, 1, 0), 8));
    // without the number of rounds: the AM's progress as a percentage
    assertEquals("application_1700000000000_0007 RUNNING: 40% done, 1 task running",
        JobWatch.line(report(YarnApplicationState.RUNNING, 0.4f, 2), 0));
  }
}
