package io.hare.sim.workload;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Jobs from the Philly trace with per-type times from Gavel's measured throughputs. */
public final class PhillyWorkload {

  private PhillyWorkload() {}

  /**
   * @param maxJobs how many jobs to take from the start of the trace; 0 takes all
   */
  public static Workload load(Path phillyCsv, Path gavelJson, ClusterSpec cluster, int maxJobs,
      long seed, Map<String, String> settings) throws IOException, BadInputException {
    throw new UnsupportedOperationException("not built yet");
  }
}
