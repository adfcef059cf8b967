package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.yarn.JobTags;
import io.hare.yarn.app.HareJobSpec;
import io.hare.yarn.app.JobCredentials;
import io.hare.yarn.app.JobSpecFile;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import io.hare.yarn.app.tokens.StagedKeytab;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hare submit JOB.xml}: validates the job spec (every problem at once), submits it to YARN
 * through {@link JobSubmitter}, prints the application id, and unless {@code --detach} follows
 * the job until it ends. {@link #connector} is the port to YARN (tests put a fake there).
 */
@Command(name = "submit", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Submits a Hare training job: a Hadoop configuration file of yarn.app.hare.* "
        + "keys (see hare-app-default.xml). Prints the application id on the first line, then "
        + "(without --detach) the rounds done until the job ends.",
        "Other keys in the file or in -D (e.g. fs.defaultFS) configure the YARN client."},
    footer = {"%nExit codes: 0 the job succeeded (or, with --detach or --validate, was "
        + "submitted or is valid); 1 the job failed or was killed, or YARN could not be "
        + "reached; 2 the spec is invalid (every problem printed), the file is missing or not "
        + "XML, or the job asks more than the cluster's largest container."})
public final class SubmitCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "JOB.xml", description = "The job spec file.")
  Path job;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "A key that wins over the file, repeatable.")
  Map<String, String> overrides = new LinkedHashMap<>();

  @Option(names = "--validate", description = "Only validate the spec; submit nothing.")
  boolean validateOnly;

  @Option(names = "--detach", description = "Return after submitting; do not follow the job.")
  boolean detach;

  @Option(names = "--poll-ms", paramLabel = "MS", defaultValue = "2000",
      description = "How often to poll the job's progress (default: ${DEFAULT-VALUE}).")
  long pollMs;

  YarnApps.Connector connector = YarnClientApps::open;
  JobWatch.Pause pause = Thread::sleep;
  /** The job's tokens and keytab check; null for the current user's. */
  JobCredentials credentials;

  @Override
  public Integer call() throws Exception {
    if (pollMs < 1) {
      throw new BadInputException("--poll-ms: must be >= 1, got " + pollMs);
    }
    Configuration conf = JobSpecFile.load(job, overrides);
    HareJobSpec parsed;
    try {
      parsed = JobSpecValidator.read(conf);
    } catch (ConfigException e) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("hare submit: " + job + ": " + e.problems().size() + " problem"
          + (e.problems().size() == 1 ? "" : "s") + ":");
      e.problems().forEach(p -> err.println("  " + p));
      err.flush();
      return HareCommand.BAD_INPUT;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (validateOnly) {
      out.println("OK: " + job + ": job " + parsed.name() + ", " + parsed.rounds()
          + " rounds of " + parsed.tasksPerRound() + " tasks, tags "
          + String.join(" ", JobTags.write(parsed.tags())));
      out.flush();
      return HareCommand.OK;
    }
    Configuration client = new YarnConfiguration();
    conf.forEach(e -> client.set(e.getKey(), e.getValue()));
    try (YarnApps apps = connector.open(client)) {
      JobSubmitter submitter = new JobSubmitter(apps, client, credentials);
      ApplicationId id = submitter.submit(parsed);
      out.println(id);
      out.flush();
      if (detach) {
        return HareCommand.OK;
      }
      ApplicationReport end = new JobWatch(apps, out, pollMs, pause).watch(id, parsed.rounds());
      boolean ok = JobWatch.succeeded(end);
      if (parsed.tokenRefresh().enabled()) {
        // ended: no attempt follows; the AM deletes it too, unless YARN killed it first
        StagedKeytab.delete(client, submitter.workDir(parsed, id),
            "the job ended " + end.getYarnApplicationState());
      }
      if (!ok) {
        // the last line above says where it stopped and why
        PrintWriter err = spec.commandLine().getErr();
        err.println("hare submit: " + id + " did not succeed: " + end.getYarnApplicationState()
            + " (" + end.getFinalApplicationStatus() + "); its logs: yarn logs -applicationId "
            + id);
        err.flush();
      }
      return ok ? HareCommand.OK : HareCommand.FAILURE;
    }
  }
}
