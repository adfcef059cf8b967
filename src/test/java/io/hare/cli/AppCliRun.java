package io.hare.cli;

import io.hare.yarn.app.JobCredentials;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/** Runs {@code hare submit/status/kill} in-process against a {@link FakeYarnApps}. */
final class AppCliRun {

  final int code;
  final String out;
  final String err;

  private AppCliRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  static AppCliRun run(FakeYarnApps yarn, String... args) {
    return run(yarn, (conf, id) -> {
      throw new java.io.IOException("no RM web server in this test");
    }, args);
  }

  /** With {@code hare status}'s predicted completions from {@code predictions}. */
  static AppCliRun run(FakeYarnApps yarn, StatusCommand.Predictions predictions,
      String... args) {
    return run(yarn, predictions, null, args);
  }

  /** {@code hare submit} with {@code credentials} for the job's tokens and keytab check. */
  static AppCliRun run(FakeYarnApps yarn, JobCredentials credentials, String... args) {
    return run(yarn, (conf, id) -> {
      throw new java.io.IOException("no RM web server in this test");
    }, credentials, args);
  }

  private static AppCliRun run(FakeYarnApps yarn, StatusCommand.Predictions predictions,
      JobCredentials credentials, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = HareCommand.commandLine(new PrintWriter(out), new PrintWriter(err),
        new CliRun.FixtureSources(), Map.of());
    SubmitCommand submit = (SubmitCommand) cl.getSubcommands().get("submit").getCommand();
    submit.connector = conf -> yarn;
    submit.pause = ms -> { };
    submit.credentials = credentials;
    StatusCommand status = (StatusCommand) cl.getSubcommands().get("status").getCommand();
    status.connector = conf -> yarn;
    status.predictions = predictions;
    ((KillCommand) cl.getSubcommands().get("kill").getCommand()).connector = conf -> yarn;
    int code = cl.execute(args);
    return new AppCliRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
