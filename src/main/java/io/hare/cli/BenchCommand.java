package io.hare.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code hare bench}: the parent of the benchmarks; it only dispatches. A new benchmark is one
 * more class in {@code subcommands}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
    description = "Benchmarks of Hare's parts, each against what stock YARN does.",
    subcommands = {BenchSchedulerCommand.class, BenchSwitchingCommand.class,
        BenchWorkersCommand.class},
    footer = {"%nRun 'hare bench COMMAND --help' for a benchmark's options."})
public final class BenchCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  /** {@code hare bench} alone: say what there is, and fail like any incomplete command. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return HareCommand.BAD_INPUT;
  }
}
