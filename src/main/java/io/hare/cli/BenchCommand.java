package io.hare.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code hare bench}: only dispatches to its benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "BENCHMARK",
    description = "Benchmarks that print figures (not tests).",
    subcommands = {BenchSwitchingCommand.class})
public final class BenchCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return HareCommand.BAD_INPUT;
  }
}
