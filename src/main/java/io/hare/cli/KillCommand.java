package io.hare.cli;

import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import io.hare.yarn.app.tokens.StagedKeytab;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hare kill APP_ID}: asks YARN to kill a job; a job that has ended is left as it is. Either
 * way, a keytab still staged for the job's AM under the user's staging directory is deleted then:
 * no attempt follows, and the killed AM may not have had the time.
 */
@Command(name = "kill", mixinStandardHelpOptions = true,
    description = {"Kills a Hare job (its task containers and its ApplicationMaster).",
        "Then deletes the AM keytab the job staged (" + AppKeys.AM_KEYTAB + "), if it is still"
            + " in its work directory."},
    footer = {"%nExit codes: 0 the kill was requested, or the job had already ended; 1 YARN "
        + "could not be reached or refused; 2 APP_ID is malformed or unknown."})
public final class KillCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "APP_ID")
  String appId;

  @Option(names = "-D", paramLabel = "KEY=VALUE", description = "A client setting, repeatable;"
      + " " + AppKeys.JOB_STAGING_DIR + " as the job had it, if not the default.")
  Map<String, String> settings = new LinkedHashMap<>();

  YarnApps.Connector connector = YarnClientApps::open;

  @Override
  public Integer call() throws Exception {
    ApplicationId id = AppIds.parse(appId);
    PrintWriter out = spec.commandLine().getOut();
    Configuration conf = new YarnConfiguration();
    settings.forEach(conf::set);
    try (YarnApps apps = connector.open(conf)) {
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
    deleteStagedKeytab(conf, id, out);
    out.flush();
    return HareCommand.OK;
  }

  /** The job has ended: its AM's keytab, if still staged, is of no more use. */
  private void deleteStagedKeytab(Configuration conf, ApplicationId id, PrintWriter out) {
    Path work;
    try {
      work = FileSystem.get(conf).makeQualified(new Path(
          conf.get(AppKeys.JOB_STAGING_DIR, AppKeys.DEFAULT_JOB_STAGING_DIR), id.toString()));
    } catch (IOException | RuntimeException e) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("hare kill: cannot look for " + id + "'s staged keytab: " + e.getMessage());
      err.flush();
      return;
    }
    if (StagedKeytab.delete(conf, work, "the job was killed")) {
      out.println("deleted its staged keytab " + StagedKeytab.in(work));
    }
  }
}
