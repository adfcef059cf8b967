package io.hare.sim.workload;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import java.io.IOException;
import java.nio.file.Path;

/** JOBS.csv and PROFILES.csv as {@code hare simulate --jobs-file/--profiles-file} read them. */
public final class WorkloadFiles {

  private WorkloadFiles() {}

  public static Workload read(Path jobsCsv, Path profilesCsv)
      throws IOException, BadInputException {
    throw new UnsupportedOperationException("not built yet");
  }

  /** Refuses a workload with a model that has no profile on any GPU type of the cluster. */
  public static void checkRunnable(Workload workload, ClusterSpec cluster)
      throws BadInputException {
    throw new UnsupportedOperationException("not built yet");
  }
}
