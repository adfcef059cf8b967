package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.yarn.JobTags;
import io.hare.yarn.app.JobStop;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import io.hare.yarn.scheduler.web.Prediction;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hare status APP_ID}: state, rounds done, queue, tags and diagnostics of a job. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Shows a Hare job's state and the rounds it has done.",
    footer = {"%nExit codes: 0 the application was found (whatever its state); 1 YARN could not "
        + "be reached; 2 APP_ID is malformed or unknown to the ResourceManager."})
public final class StatusCommand implements Callable<Integer> {

  private static final Set<YarnApplicationState> ENDED = EnumSet.of(
      YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "APP_ID", description = "e.g. application_1700000000000_0001")
  String appId;

  YarnApps.Connector connector = YarnClientApps::open;

  /** Where the job's predicted completion comes from: the RM's Hare REST answer. */
  interface Predictions {
    Prediction of(Configuration conf, ApplicationId id) throws IOException;
  }

  Predictions predictions = Prediction::fetch;

  @Override
  public Integer call() throws Exception {
    ApplicationId id = AppIds.parse(appId);
    ApplicationReport r;
    YarnConfiguration conf = new YarnConfiguration();
    try (YarnApps apps = connector.open(conf)) {
      r = apps.report(id);
    } catch (ApplicationNotFoundException e) {
      throw AppIds.unknown(id, e);
    }
    int rounds;
    try {
      rounds = JobTags.parse(r.getApplicationTags()).rounds().orElse(0);
    } catch (BadInputException e) {
      rounds = 0; // not a Hare job, or odd tags: show percent
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(JobWatch.line(r, rounds, -1));
    out.println("  name: " + r.getName() + ", queue: " + r.getQueue() + ", user: " + r.getUser());
    out.println("  tags: " + String.join(" ", r.getApplicationTags()));
    if (r.getTrackingUrl() != null && !r.getTrackingUrl().isEmpty()) {
      out.println("  tracking: " + r.getTrackingUrl());
    }
    // the first line already says where a failed job stopped: here only why
    String why = JobStop.why(r.getDiagnostics());
    if (!why.isEmpty()) {
      out.println("  diagnostics: " + why);
    }
    printPrediction(out, conf, id, r);
    out.flush();
    return HareCommand.OK;
  }

  /**
   * The scheduler's predicted completion of a job that has not ended (an estimate from the
   * policy's current order); a line saying why when there is none or the RM's web server cannot
   * be read (the status itself came from the RM's RPC port and stands).
   */
  private void printPrediction(PrintWriter out, YarnConfiguration conf, ApplicationId id,
      ApplicationReport r) {
    if (ENDED.contains(r.getYarnApplicationState())) {
      return;
    }
    String line;
    try {
      Prediction p = predictions.of(conf, id);
      line = p.describe() + (p.completionMs().isPresent() ? ", an estimate" : "");
    } catch (IOException e) {
      line = "unavailable (" + e.getMessage() + ")";
    }
    out.println("  predicted completion: " + line);
  }
}
