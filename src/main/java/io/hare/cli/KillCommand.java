package io.hare.cli;

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

/** {@code hare kill APP_ID}: asks YARN to kill a job; a job that has ended is left as it is. */
@Command(name = "kill", mixinStandardHelpOptions = true,
    description = "Kills a Hare job (its task containers and its ApplicationMaster).",
    footer = {"%nExit codes: 0 the kill was requested, or the job had already ended; 1 YARN "
        + "could not be reached or refused; 2 APP_ID is malformed or unknown."})
public final class KillCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "APP_ID")
  String appId;

  YarnApps.Connector connector = YarnClientApps::open;

  @Override
  public Integer call() throws Exception {
    ApplicationId id = AppIds.parse(appId);
    PrintWriter out = spec.commandLine().getOut();
    try (YarnApps apps = connector.open(new YarnConfiguration())) {
      ApplicationReport r = apps.report(id);
      if (JobWatch.ENDED.contains(r.getYarnApplicationState())) {
        out.println(id + " has already ended: " + r.getYarnApplicationState() + " ("
            + r.getFinalApplicationStatus() + ")");
      } else {
        apps.kill(id);
        out.println("killed " + id);
      }
    } catch (ApplicationNotFoundException e) {
      throw AppIds.unknown(id, e);
    }
    out.flush();
    return HareCommand.OK;
  }
}
