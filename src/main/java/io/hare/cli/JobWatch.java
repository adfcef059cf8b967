package io.hare.cli;

import io.hare.yarn.app.JobStop;
import io.hare.yarn.app.YarnApps;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * Polls an application's report until it ends, printing a line whenever its state, the rounds
 * done (with a text progress bar) or the task containers it runs change. While the job runs,
 * rounds done are the AM's progress (rounds synced / R) times R, never fewer than already seen
 * (a new AM attempt reports 0 until it has read the checkpoint). YARN reports a progress of 1
 * for every ended application, so at the end only a success counts as R of R; a failed job's
 * rounds and where it stopped come from its AM's {@link JobStop} mark, and its last line adds
 * why (the diagnostics). The pause between polls is a port so tests do not wait.
 */
final class JobWatch {

  /** Waits between two polls. */
  @FunctionalInterface
  interface Pause {
    void pause(long ms) throws InterruptedException;
  }

  static final Set<YarnApplicationState> ENDED = EnumSet.of(YarnApplicationState.FINISHED,
      YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  private final YarnApps apps;
  private final PrintWriter out;
  private final long intervalMs;
  private final Pause pause;

  JobWatch(YarnApps apps, PrintWriter out, long intervalMs, Pause pause) {
    this.apps = apps;
    this.out = out;
    this.intervalMs = intervalMs;
    this.pause = pause;
  }

  /** The final report. */
  ApplicationReport watch(ApplicationId id, int rounds) throws IOException, YarnException,
      InterruptedException {
    String last = "";
    int seen = -1;
    while (true) {
      ApplicationReport r = apps.report(id);
      boolean ended = ENDED.contains(r.getYarnApplicationState());
      String line = line(r, rounds, seen);
      if (ended && !succeeded(r)) {
        String why = JobStop.why(r.getDiagnostics()).replaceAll("\\s+", " ");
        line += why.isEmpty() ? "" : ": " + why;
      }
      if (!line.equals(last)) {
        out.println(line);
        out.flush();
        last = line;
      }
      if (ended) {
        return r;
      }
      seen = Math.max(seen, roundsDone(r, rounds));
      pause.pause(intervalMs);
    }
  }

  static int roundsDone(ApplicationReport r, int rounds) {
    return Math.round(r.getProgress() * rounds);
  }

  static boolean succeeded(ApplicationReport r) {
    return r.getYarnApplicationState() == YarnApplicationState.FINISHED
        && r.getFinalApplicationStatus() == FinalApplicationStatus.SUCCEEDED;
  }

  /**
   * The line for report {@code r} of a job of {@code rounds} rounds (0: unknown, shown as a
   * percentage); {@code seen} is the most rounds done an earlier report showed, -1 for none.
   */
  static String line(ApplicationReport r, int rounds, int seen) {
    String state = r.getYarnApplicationState().toString();
    if (ENDED.contains(r.getYarnApplicationState())) {
      state += " (" + r.getFinalApplicationStatus() + ")";
    }
    return r.getApplicationId() + " " + state + ": " + done(r, rounds, seen) + running(r);
  }

  private static String done(ApplicationReport r, int rounds, int seen) {
    if (!ENDED.contains(r.getYarnApplicationState())) {
      if (rounds <= 0) {
        return Math.round(r.getProgress() * 100) + "% done";
      }
      int done = Math.max(seen, roundsDone(r, rounds));
      return bar(done, rounds) + " " + done + " of " + rounds + " rounds done";
    }
    if (succeeded(r)) {
      return rounds > 0 ? bar(rounds, rounds) + " " + rounds + " of " + rounds + " rounds done"
          : "100% done";
    }
    Optional<JobStop> stop = JobStop.find(r.getDiagnostics());
    if (stop.isPresent() && stop.get().rounds() > 0) {
      return bar(stop.get().roundsDone(), stop.get().rounds()) + " " + stop.get().describe();
    }
    if (seen >= 0 && rounds > 0) {
      return bar(seen, rounds) + " at least " + seen + " of " + rounds
          + " rounds done (the last report before the end)";
    }
    return "rounds done not known (its ApplicationMaster did not say; YARN reports no progress"
        + " for an ended job)";
  }

  /** {@code [#####.....]}: rounds done out of the total, in 20 steps. */
  static String bar(int done, int rounds) {
    int full = (int) Math.min(BAR, (long) done * BAR / rounds);
    return "[" + "#".repeat(full) + ".".repeat(BAR - full) + "]";
  }

  private static final int BAR = 20;

  /** The task containers a running job holds now: its containers but the AM's. */
  private static String running(ApplicationReport r) {
    ApplicationResourceUsageReport u = r.getApplicationResourceUsageReport();
    if (r.getYarnApplicationState() != YarnApplicationState.RUNNING || u == null
        || u.getNumUsedContainers() < 1) {
      return "";
    }
    int tasks = u.getNumUsedContainers() - 1;
    return ", " + tasks + (tasks == 1 ? " task" : " tasks") + " running";
  }
}
