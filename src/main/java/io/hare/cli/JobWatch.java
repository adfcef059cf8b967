package io.hare.cli;

import io.hare.yarn.app.YarnApps;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * Polls an application's report until it ends, printing a line whenever its state or the rounds
 * done change. Rounds done are the AM's progress (rounds done / R) times R. The pause between
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
    return r.getApplicationId() + " " + state + ": " + (rounds > 0
        ? roundsDone(r, rounds) + " of " + rounds + " rounds done"
        : Math.round(r.getProgress() * 100) + "% done");
  }
}
