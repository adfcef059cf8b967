package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.core.KeyHints;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code hare} command, the jar's main class. Each subcommand is its own class, added in
 * {@link #commandLine}; this class only dispatches and owns the exit codes.
 *
 * <p>Exit codes, decided here and nowhere else: {@link #OK} 0 on success; {@link #BAD_INPUT} 2
 * for anything the user can fix (unknown option, bad value, missing or malformed file, unknown
 * policy, invalid setting), with one message on stderr that names the option, key, or file and
 * line, and no stack trace; {@link #FAILURE} 1 for everything else (a bug or an I/O error while
 * writing), with a one-line message on stderr and the stack trace logged at DEBUG.
 */
@Command(name = "hare", mixinStandardHelpOptions = true, version = "hare 0.1.0",
    synopsisSubcommandLabel = "COMMAND",
    description = "Hare on YARN: heterogeneity-aware scheduling of synchronous training jobs.",
    footer = {"%nRun 'hare COMMAND --help' for a command's options."})
public final class HareCommand implements Callable<Integer> {

  public static final int OK = 0;
  public static final int FAILURE = 1;
  public static final int BAD_INPUT = 2;

  /** The logging configuration on the classpath, unless the user names another. */
  static final String LOG_CONFIG = "hare-cli-log4j.properties";

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    // Before any logger exists: logs go to stderr (stdout carries the results), and charts
    // render without a display.
    if (System.getProperty("log4j.configuration") == null) {
      System.setProperty("log4j.configuration", LOG_CONFIG);
    }
    System.setProperty("java.awt.headless", "true");
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8));
    int code = commandLine(out, err, WorkloadSources.STANDARD, System.getenv()).execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /**
   * The command tree writing to {@code out} and {@code err}, with the exit-code handlers
   * installed; {@code sources} and {@code env} are the ports tests replace.
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err, WorkloadSources sources,
      Map<String, String> env) {
    CommandLine cl = new CommandLine(new HareCommand());
    cl.addSubcommand("help", new CommandLine.HelpCommand());
    // a command whose libraries are missing (bin/hare without a Hadoop) is listed all the same;
    // lambdas, not constructor references, so that a class fails to load only inside add
    MissingLibraries.add(cl, "simulate", SimulateCommand.class,
        () -> new SimulateCommand(sources, env));
    MissingLibraries.add(cl, "conf-check", ConfCheckCommand.class, () -> new ConfCheckCommand());
    MissingLibraries.add(cl, "submit", SubmitCommand.class, () -> new SubmitCommand());
    MissingLibraries.add(cl, "status", StatusCommand.class, () -> new StatusCommand());
    MissingLibraries.add(cl, "kill", KillCommand.class, () -> new KillCommand());
    MissingLibraries.add(cl, "demo", DemoCommand.class, () -> new DemoCommand());
    MissingLibraries.add(cl, "bench", BenchCommand.class, () -> new BenchCommand());
    // Subcommands first: these setters reach only the subcommands present when called.
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(HareCommand::badArguments);
    cl.setExecutionExceptionHandler(HareCommand::failed);
    return cl;
  }

  /** {@code hare} alone: say what there is, and fail like any incomplete command line. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return BAD_INPUT;
  }

  /** The exit code of a failure. */
  static int exitCode(Throwable t) {
    return t instanceof BadInputException || t instanceof ConfigException
        || t instanceof ParameterException ? BAD_INPUT : FAILURE;
  }

  /**
   * A command line picocli could not parse. Unknown options come first, each with the closest
   * known option: picocli reports a missing required option before them, though the unknown one
   * is most often that option misspelt.
   */
  private static int badArguments(ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    String name = cmd.getCommandSpec().qualifiedName();
    boolean explained = true; // every unmatched argument is an unknown option or its value
    boolean afterOption = false;
    for (String a : cmd.getUnmatchedArguments()) {
      if (a.startsWith("-") && a.length() > 1) {
        String typed = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        int own = typed.replaceFirst("^-+", "").length();
        String hint = own > 1 ? KeyHints.closest(typed,
            cmd.getCommandSpec().optionsMap().keySet(), own / 3 + 1)
            .map(o -> "; did you mean " + o + "?").orElse("") : "";
        err.println(name + ": unknown option '" + typed + "'" + hint);
        afterOption = !a.contains("=");
      } else {
        explained &= afterOption;
        afterOption = false;
      }
    }
    if (!(e instanceof UnmatchedArgumentException) || !explained) {
      err.println(name + ": " + e.getMessage());
      UnmatchedArgumentException.printSuggestions(e, err);
    }
    err.println("Try '" + name + " --help' for more information.");
    err.flush();
    return BAD_INPUT;
  }

  private static int failed(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    String name = cmd.getCommandSpec().qualifiedName();
    int code = exitCode(e);
    if (code == BAD_INPUT) {
      err.println(name + ": " + e.getMessage());
    } else {
      err.println(name + ": failed: " + e);
      err.println("(stack trace in the log at DEBUG: HARE_OPTS=-Dhare.log.level=DEBUG)");
      LoggerFactory.getLogger(HareCommand.class).debug("{} failed", name, e);
    }
    err.flush();
    return code;
  }
}
