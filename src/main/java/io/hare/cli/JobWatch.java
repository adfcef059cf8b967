package io.hare.cli;

import io.hare.yarn.app.YarnApps;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * Polls an application's report until it ends, printing a line whenever its state, the rounds
 * done (with a text progress bar) or the task containers it runs change. Rounds done are the AM's progress (rounds done / R) times R. The pause between
 * polls is a port so tests do not wait.
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
    while (true) {
      ApplicationReport r = apps.report(id);
      String line = line(r, rounds);
      if (!line.equals(last)) {
        out.println(line);
        out.flush();
        last = line;
      }
      if (ENDED.contains(r.getYarnApplicationState())) {
        return r;
      }
      pause.pause(intervalMs);
    }
  }

  static int roundsDone(ApplicationReport r, int rounds) {
    return Math.round(r.getProgress() * rounds);
  }

  static String line(ApplicationReport r, int rounds) {
    String state = r.getYarnApplicationState().toString();
    if (ENDED.contains(r.getYarnApplicationState())) {
      state += " (" + r.getFinalApplicationStatus() + ")";
    }
    String done = rounds > 0
        ? bar(roundsDone(r, rounds), rounds) + " " + roundsDone(r, rounds) + " of " + rounds
            + " rounds done"
        : Math.round(r.getProgress() * 100) + "% done";
    return r.getApplicationId() + " " + state + ": " + done + running(r);
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
