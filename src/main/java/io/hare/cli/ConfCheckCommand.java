package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.yarn.GpuDevices;
import io.hare.yarn.scheduler.HareSettings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hare conf-check}: runs the scheduler's own start-up validation ({@link HareSettings#read})
 * on a configuration, so an admin finds every bad {@code yarn.scheduler.hare.*} value before the
 * ResourceManager refuses to start on it.
 */
@Command(name = "conf-check", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Validates the Hare scheduler settings (yarn.scheduler.hare.*) as the "
        + "ResourceManager does at start and on 'yarn rmadmin -refreshQueues'.",
        "Exit 0 when valid; 2 with every problem, one per line, otherwise."})
public final class ConfCheckCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--conf", paramLabel = "FILE",
      description = {"A Hadoop configuration file to read, e.g. yarn-site.xml; repeatable, later "
          + "files win. Without it, the yarn-site.xml on the classpath (if any)."})
  List<Path> files = new ArrayList<>();

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "A setting that wins over the files, repeatable.")
  Map<String, String> overrides = Map.of();

  @Override
  public Integer call() throws BadInputException {
    Configuration conf = new Configuration(false);
    if (files.isEmpty()) {
      conf.addResource("yarn-site.xml");
    }
    for (Path f : files) {
      if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
        throw new BadInputException("--conf " + f + ": no such readable file");
      }
      conf.addResource(new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri()));
    }
    overrides.forEach(conf::set);
    long keys;
    try {
      keys = conf.getPropsWithPrefix(SchedulerKeys.PREFIX).size(); // parses every file now
    } catch (RuntimeException e) {
      throw new BadInputException("cannot read the configuration: " + rootMessage(e));
    }
    PrintWriter out = spec.commandLine().getOut();
    try {
      HareSettings s = HareSettings.read(conf);
      out.println("OK: policy " + s.policyName() + ", " + keys + " " + SchedulerKeys.PREFIX
          + "* keys set, all valid");
      if (s.standbyEnabled()) {
        out.println("Note: " + SchedulerKeys.STANDBY_ENABLED + " is on: standby and parked"
            + " containers apply only on nodes whose GPUs YARN does not isolate per container"
            + " (node attribute " + GpuDevices.ISOLATION_ATTRIBUTE + "=false; a node that does"
            + " not say is taken as " + (s.isolatedByDefault() ? "isolated" : "not isolated")
            + " by " + SchedulerKeys.GPU_ISOLATION_DEFAULT + "; YARN's GPU plugin assigns"
            + " devices only at launch). Isolated nodes skip them (metric"
            + " StandbysSkippedIsolated) and start each task in a new container.");
      }
      out.flush();
      return HareCommand.OK;
    } catch (ConfigException e) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("hare conf-check: " + e.problems().size() + " problem"
          + (e.problems().size() == 1 ? "" : "s") + ":");
      e.problems().forEach(p -> err.println("  " + p));
      err.flush();
      return HareCommand.BAD_INPUT;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
