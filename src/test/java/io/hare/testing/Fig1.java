package io.hare.testing;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import java.util.List;

/**
 * The toy example of the Hare paper's Fig. 1 (PAPER-NOTES.md 1.3): three GPUs, one of each of
 * three types g1, g2, g3; three jobs arriving at 0 with weight 1 and no sync time.
 *
 * <pre>
 *   per-task compute   g1     g2     g3    tasks
 *   j1                 1.5 s  2 s    1 s   1 round of 2
 *   j2                 1 s    2 s    1 s   1 round of 3
 *   j3                 2 s    1.5 s  0.5 s 2 rounds of 2
 * </pre>
 *
 * <p>The paper reports total JCT 10.5 s for heterogeneity-oblivious scheduling, 9 s for
 * AlloX-style job-level scheduling and 8.5 s for Hare; the true optimum is 7.5 s (for example j3
 * alone on g3 finishing at 2 s, j1 on g1 and g2 finishing at 2 s, j2 finishing at 3.5 s).
 */
public final class Fig1 {

  /** The minimum total JCT of the instance, seconds. */
  public static final double OPTIMAL_TOTAL_JCT_S = 7.5;
  /** Total JCT of the paper's Hare schedule in Fig. 1, seconds. */
  public static final double PAPER_HARE_TOTAL_JCT_S = 8.5;

  private Fig1() {}

  public static ClusterSpec cluster() {
    return ClusterSpec.parse("g1=1,g2=1,g3=1");
  }

  public static List<JobSpec> jobs() {
    return List.of(
        new JobSpec("j1", 0, 1, "j1", 2, 1),
        new JobSpec("j2", 0, 1, "j2", 3, 1),
        new JobSpec("j3", 0, 1, "j3", 2, 2));
  }

  /** Model name = job id; times in milliseconds. */
  public static ProfileTable profiles() {
    return ProfileTable.builder()
        .put("j1", "g1", 1500, 0).put("j1", "g2", 2000, 0).put("j1", "g3", 1000, 0)
        .put("j2", "g1", 1000, 0).put("j2", "g2", 2000, 0).put("j2", "g3", 1000, 0)
        .put("j3", "g1", 2000, 0).put("j3", "g2", 1500, 0).put("j3", "g3", 500, 0)
        .build();
  }
}
