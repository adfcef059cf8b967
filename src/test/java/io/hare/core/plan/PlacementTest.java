package io.hare.core.plan;

import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileTable;
import io.hare.testing.Fig1;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

/**
 * The greedy placement that seeds CP-SAT: valid, and, once made canonical, inside the solver's
 * symmetry breaking (CP-SAT silently drops a hint that breaks a constraint, so a wrong one would
 * only show as slowness).
 */
public class PlacementTest {

  @Test(timeout = 60_000)
  public void greedyIsValidAndCanonicalFitsTheSymmetryBreaking() {
    for (long seed = 1; seed <= 40; seed++) {
      ExactSolverTest.Instance x = ExactSolverTest.Instance.random(seed);
      check(x.cluster(), x.jobs(), x.profiles());
    }
    check(Fig1.cluster(), Fig1.jobs(), Fig1.profiles());
    ProfileTable p = ProfileTable.builder().put("m", "a", 100, 10).put("m", "b", 150, 0).build();
    check(ClusterSpec.parse("a=3,b=2"), List.of(new JobSpec("x", 0, 1, "m", 4, 2),
        new JobSpec("y", 30, 2, "m", 3, 3)), p);
  }

  private static void check(ClusterSpec cluster, List<JobSpec> jobs, ProfileTable p) {
    TinyInstance in = TinyInstance.of(cluster, jobs, p);
    Placement raw = Placement.greedy(in);
    ExactChecks.assertValid(in.toSchedule(raw, ExactSchedule.Status.HEURISTIC, 0, 0), cluster,
        jobs, p);
    Placement c = raw.canonical(in);
    ExactSchedule s = in.toSchedule(c, ExactSchedule.Status.HEURISTIC, 0, 0);
    ExactChecks.assertValid(s, cluster, jobs, p);
    assertTrue("relabelling changed the objective",
        Math.abs(s.weightedJctS() - in.toSchedule(raw, ExactSchedule.Status.HEURISTIC, 0, 0)
            .weightedJctS()) < 1e-9);
    for (int t = 1; t < in.taskCount(); t++) {
      if (in.taskIndex[t] > 0) {
        assertTrue("index order in a round", c.startMs[t - 1] <= c.startMs[t]);
      }
    }
    int[] first = new int[in.gpuCount()];
    Arrays.fill(first, Integer.MAX_VALUE);
    for (int t = in.taskCount() - 1; t >= 0; t--) {
      first[c.gpuOf[t]] = t;
    }
    for (List<Integer> group : in.typeGroups()) {
      for (int q = 1; q < group.size(); q++) {
        int prev = first[group.get(q - 1)];
        int cur = first[group.get(q)];
        assertTrue("GPUs of a type in order of first task", cur == Integer.MAX_VALUE
            || prev < cur);
      }
    }
  }
}
