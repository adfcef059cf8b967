package io.hare.sim.workload;

import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import java.util.List;

/**
 * Jobs to simulate and the ground-truth task times they run with.
 *
 * @param name where it came from (paper, philly, or the jobs file)
 */
public record Workload(String name, List<JobSpec> jobs, ProfileTable profiles) {

  public Workload {
    jobs = List.copyOf(jobs);
  }
}
