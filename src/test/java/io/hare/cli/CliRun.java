package io.hare.cli;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.sim.workload.Workload;
import io.hare.testing.Workloads;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs {@code hare ...} in-process with captured stdout and stderr. */
final class CliRun {

  final int code;
  final String out;
  final String err;

  private CliRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  static CliRun run(WorkloadSources sources, Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = HareCommand.commandLine(new PrintWriter(out), new PrintWriter(err), sources, env)
        .execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  static CliRun run(String... args) {
    return run(new FixtureSources(), Map.of(), args);
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }

  /** Sources that hand out {@code w} whatever is asked. */
  static WorkloadSources always(Workload w) {
    return new WorkloadSources() {
      @Override
      public Workload paper(ClusterSpec cluster, int jobs, long seed, Map<String, String> s) {
        return w;
      }

      @Override
      public Workload philly(Path csv, Path gavel, ClusterSpec cluster, int maxJobs, long seed,
          Map<String, String> s) {
        return w;
      }

      @Override
      public Workload files(Path jobs, Path profiles, ClusterSpec cluster) {
        return w;
      }
    };
  }

  /**
   * Every workload is the test fixture ({@link Workloads}): {@code n} random jobs for the seed;
   * remembers what it was asked for.
   */
  static final class FixtureSources implements WorkloadSources {
    final List<String> calls = new ArrayList<>();

    static Workload fixture(String name, int n, long seed) {
      List<JobSpec> jobs = Workloads.randomJobs(seed, n);
      return new Workload(name, jobs, Workloads.profiles());
    }

    @Override
    public Workload paper(ClusterSpec cluster, int jobs, long seed, Map<String, String> s) {
      calls.add("paper " + jobs + " " + seed);
      return fixture("paper", jobs, seed);
    }

    @Override
    public Workload philly(Path csv, Path gavel, ClusterSpec cluster, int maxJobs, long seed,
        Map<String, String> s) {
      calls.add("philly " + csv + " " + gavel + " " + maxJobs);
      return fixture("philly", Math.max(maxJobs, 1), seed);
    }

    @Override
    public Workload files(Path jobs, Path profiles, ClusterSpec cluster) {
      calls.add("files " + jobs + " " + profiles);
      return fixture("files", 5, 1);
    }
  }
}
