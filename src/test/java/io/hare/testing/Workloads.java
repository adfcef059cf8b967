package io.hare.testing;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Small random workloads for policy tests: few GPUs of three types, a dozen jobs. */
public final class Workloads {

  private Workloads() {}

  /**
   * Three models with different speed-ups: "cnn" gains a lot on v100, "gnn" little, and "rec"
   * cannot run on k80 at all (no profile there), so policies must respect eligibility.
   */
  public static ProfileTable profiles() {
    return ProfileTable.builder()
        .put("cnn", "v100", 100, 20).put("cnn", "t4", 300, 30).put("cnn", "k80", 700, 40)
        .put("gnn", "v100", 200, 10).put("gnn", "t4", 250, 10).put("gnn", "k80", 400, 20)
        .put("rec", "v100", 150, 50).put("rec", "t4", 120, 50)
        .build();
  }

  public static ClusterSpec smallCluster() {
    return ClusterSpec.parse("v100=3,t4=2,k80=3");
  }

  /** Random jobs: arrivals within 2 s, k in 1..4, rounds in 1..5, weights in 1..4. */
  public static List<JobSpec> randomJobs(long seed, int n) {
    Random r = new Random(seed);
    String[] models = {"cnn", "gnn", "rec"};
    List<JobSpec> jobs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      jobs.add(new JobSpec("j" + i, r.nextInt(2000), 1 + r.nextInt(4), models[r.nextInt(3)],
          1 + r.nextInt(4), 1 + r.nextInt(5)));
    }
    return jobs;
  }
}
