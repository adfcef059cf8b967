package io.hare.example;

import io.hare.core.BadInputException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The example training job: synchronous data-parallel SGD of softmax regression on a synthetic
 * data set, split into the per-round task and sync processes the Hare ApplicationMaster runs.
 * It needs no GPU and does real CPU work.
 *
 * <pre>
 * java -cp hare-yarn.jar io.hare.example.SgdJob init --work-dir D   once, before submitting
 * java -cp hare-yarn.jar io.hare.example.SgdJob task                the task command (process mode)
 * java -cp hare-yarn.jar io.hare.example.SgdJob worker              the task command (resident mode)
 * java -cp hare-yarn.jar io.hare.example.SgdJob sync                the sync command
 * java -cp hare-yarn.jar io.hare.example.SgdJob reference --work-dir D --rounds R --tasks-per-round K
 * </pre>
 *
 * {@code task} and {@code sync} read only the environment contract of the AM ({@link JobEnv})
 * and the files of {@link WorkFiles}. The maths is in {@link SoftmaxRegression}, shared with
 * {@code reference}, so the model after R rounds is the same, byte for byte, whatever order,
 * nodes and GPU types the tasks ran on, and however often they were retried.
 *
 * <p>Exit codes, decided here only: {@link #OK} 0; {@link #BAD_INPUT} 2 for a bad environment,
 * option or missing/foreign file, with one message on stderr naming the variable, option or
 * file; {@link #FAILURE} 1 for anything else (I/O errors, bugs).
 */
@Command(name = "SgdJob", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
    description = "Hare's example job: synchronous SGD of softmax regression, one process per "
        + "task and per sync step.",
    subcommands = CommandLine.HelpCommand.class)
public final class SgdJob implements Callable<Integer> {

  public static final int OK = 0;
  public static final int FAILURE = 1;
  public static final int BAD_INPUT = 2;

  /** Picocli's switch that stops it loading Groovy closures. */
  static final String NO_CLOSURES = "picocli.disable.closures";
  /** The subcommands, in the order help lists them. */
  private static final String[] SUBCOMMANDS = {"init", "task", "worker", "sync", "reference"};

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    // picocli looks for Groovy's Closure class once, and the miss searches every jar of the
    // container's classpath (a cluster's Hadoop: some 150 jars, 0.15 s of CPU in a JVM that
    // starts by the dozen; docs/performance.md, section 3). SgdJob has no Groovy closures.
    if (System.getProperty(NO_CLOSURES) == null) {
      System.setProperty(NO_CLOSURES, "true");
    }
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8));
    int code = commandLine(out, err, Env.SYSTEM, args.length > 0 ? args[0] : "")
        .execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** The command tree writing to {@code out} and {@code err} and reading {@code env}. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err, Env env) {
    return commandLine(out, err, env, "");
  }

  /**
   * The command tree for a command line whose first argument is {@code first}: when that names
   * a subcommand, the tree holds only that one, as the others cannot run. Picocli builds each
   * command's model by reflection, in a cold JVM some 15 ms of CPU per command; every
   * task, worker and sync step of a job is such a JVM, and they start by the dozen on a busy
   * node (docs/performance.md, section 3). Any other first argument (none, an option,
   * {@code help}, a typo) gets the whole tree, so help and errors list every command.
   */
  static CommandLine commandLine(PrintWriter out, PrintWriter err, Env env, String first) {
    CommandLine cl = new CommandLine(new SgdJob());
    Object only = subcommand(first, env);
    if (only != null) {
      cl.addSubcommand(first, only);
    } else {
      for (String name : SUBCOMMANDS) {
        cl.addSubcommand(name, subcommand(name, env));
      }
    }
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(SgdJob::badArguments);
    cl.setExecutionExceptionHandler(SgdJob::failed);
    return cl;
  }

  /** A new instance of subcommand {@code name}; null when there is none of that name. */
  private static Object subcommand(String name, Env env) {
    return switch (name) {
      case "init" -> new InitCommand();
      case "task" -> new TaskCommand(env);
      case "worker" -> new WorkerCommand(env);
      case "sync" -> new SyncCommand(env);
      case "reference" -> new ReferenceCommand();
      default -> null;
    };
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return BAD_INPUT;
  }

  private static int badArguments(ParameterException e, String[] args) {
    PrintWriter err = e.getCommandLine().getErr();
    err.println(e.getCommandLine().getCommandSpec().qualifiedName() + ": " + e.getMessage());
    err.flush();
    return BAD_INPUT;
  }

  private static int failed(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    String name = cmd.getCommandSpec().qualifiedName();
    if (e instanceof BadInputException) {
      err.println(name + ": " + e.getMessage());
      err.flush();
      return BAD_INPUT;
    }
    err.println(name + ": failed: " + e);
    for (StackTraceElement s : e.getStackTrace()) {
      err.println("\tat " + s); // a task's stderr is its YARN log: the trace belongs there
    }
    err.flush();
    return FAILURE;
  }
}
