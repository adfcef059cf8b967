package io.hare.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A stand-in for a subcommand whose classes cannot load because a library is missing from the
 * classpath: the tarball's {@code bin/hare} without a Hadoop installation has neither Hadoop's
 * jars nor the SLF4J and Jackson that come with them. The stand-in keeps the command listed in
 * {@code hare --help} with its own description, and when run says which class is missing and
 * where bin/hare finds Hadoop, with {@link HareCommand#FAILURE}.
 */
final class MissingLibraries implements Callable<Integer> {

  private final String name;
  private final String missing;
  private CommandSpec spec;

  private MissingLibraries(String name, String missing) {
    this.name = name;
    this.missing = missing;
  }

  /**
   * Adds the command {@code type} as {@code supplier} makes it, or its stand-in when a class it
   * needs cannot load (when it is made, or when picocli reflects on it).
   */
  static void add(CommandLine parent, String name, Class<?> type, Callable<Object> supplier) {
    Object command;
    try {
      command = supplier.call();
      parent.addSubcommand(name, command);
    } catch (NoClassDefFoundError | ExceptionInInitializerError e) {
      parent.addSubcommand(name, stand(type, e));
    } catch (Exception e) {
      throw new IllegalStateException("cannot create " + type.getName(), e);
    }
  }

  private static CommandSpec stand(Class<?> type, Throwable e) {
    Command c = type.getAnnotation(Command.class);
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String missing = String.valueOf(root.getMessage()).replace('/', '.');
    MissingLibraries m = new MissingLibraries(c.name(), missing);
    CommandSpec spec = CommandSpec.wrapWithoutInspection(m).name(c.name())
        .mixinStandardHelpOptions(true);
    spec.usageMessage().description(c.description());
    spec.usageMessage().footer("%nNot runnable here: its libraries are missing (" + missing
        + ").");
    spec.parser().unmatchedArgumentsAllowed(true);
    m.spec = spec;
    return spec;
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    err.println("hare " + name + ": cannot run here: the class " + missing + " is missing from"
        + " the classpath; this command needs Hadoop's libraries, which bin/hare takes from the"
        + " Hadoop at HADOOP_HOME, else from 'hadoop' on the PATH");
    err.flush();
    return HareCommand.FAILURE;
  }
}
