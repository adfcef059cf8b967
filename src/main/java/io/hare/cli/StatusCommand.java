package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.yarn.JobTags;
import io.hare.yarn.app.JobStop;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
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

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "APP_ID", description = "e.g. application_1700000000000_0001")
  String appId;

  YarnApps.Connector connector = YarnClientApps::open;

  @Override
  public Integer call() throws Exception {
    ApplicationId id = AppIds.parse(appId);
    ApplicationReport r;
    try (YarnApps apps = connector.open(new YarnConfiguration())) {
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
    out.flush();
    return HareCommand.OK;
  }
}
