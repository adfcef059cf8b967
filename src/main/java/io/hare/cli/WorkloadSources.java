package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.sim.workload.PaperWorkload;
import io.hare.sim.workload.PhillyWorkload;
import io.hare.sim.workload.Workload;
import io.hare.sim.workload.WorkloadFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where {@code hare simulate} gets its jobs and their ground-truth task times: the port between
 * the command and the workload readers, so tests can hand the command a workload built in code.
 * {@link #STANDARD} delegates to {@link PaperWorkload}, {@link PhillyWorkload} and
 * {@link WorkloadFiles}. Bad input is a {@link BadInputException} naming file, line and field.
 */
public interface WorkloadSources {

  /** The paper's synthetic setting. */
  Workload paper(ClusterSpec cluster, int jobs, long seed, Map<String, String> settings);

  /** The Philly trace with Gavel task times; {@code maxJobs} 0 takes the whole trace. */
  Workload philly(Path phillyCsv, Path gavelJson, ClusterSpec cluster, int maxJobs, long seed,
      Map<String, String> settings) throws IOException, BadInputException;

  /** JOBS.csv and PROFILES.csv, refused if a job cannot run on any GPU type of the cluster. */
  Workload files(Path jobsCsv, Path profilesCsv, ClusterSpec cluster)
      throws IOException, BadInputException;

  WorkloadSources STANDARD = new WorkloadSources() {
    @Override
    public Workload paper(ClusterSpec cluster, int jobs, long seed, Map<String, String> settings) {
      return PaperWorkload.generate(cluster, jobs, seed, settings);
    }

    @Override
    public Workload philly(Path phillyCsv, Path gavelJson, ClusterSpec cluster, int maxJobs,
        long seed, Map<String, String> settings) throws IOException, BadInputException {
      return PhillyWorkload.load(phillyCsv, gavelJson, cluster, maxJobs, seed, settings);
    }

    @Override
    public Workload files(Path jobsCsv, Path profilesCsv, ClusterSpec cluster)
        throws IOException, BadInputException {
      Workload w = WorkloadFiles.read(jobsCsv, profilesCsv);
      WorkloadFiles.checkRunnable(w, cluster);
      return w;
    }
  };
}
