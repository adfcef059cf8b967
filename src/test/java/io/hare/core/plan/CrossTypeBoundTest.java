package io.hare.core.plan;

import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.TaskTimeModel;
import io.hare.testing.Corpus;
import java.util.List;
import org.junit.Test;

/**
 * The cross-type limit (a job's k tasks at once counted over all types together) keeps the
 * relaxation a lower bound, never below the per-type one, and raises it where jobs could
 * otherwise run k tasks on every type at once.
 */
public class CrossTypeBoundTest {

  private static final ExactSolver SOLVER = new ExactSolver(30, 1);

  @Test(timeout = 120_000)
  public void neverAboveTheProvenOptimumAndNeverBelowThePerTypeRelaxation() {
    int raised = 0;
    for (long seed = 1; seed <= 30; seed++) {
      ExactSolverTest.Instance a = ExactSolverTest.Instance.random(seed);
      // the brute force agrees with CP-SAT on these (ExactSolverTest), so both optima are checked
      raised += check("random-" + seed, a.cluster(), a.jobs(), a.profiles(),
          BruteForce.minWeightedJctS(a.cluster(), a.jobs(), a.profiles()));
      Corpus.Instance t = Corpus.tiny(seed);
      ExactSchedule opt = SOLVER.solve(t.cluster(), t.jobs(), t.profiles());
      assertTrue(t + ": not proven", opt.optimal());
      raised += check(t.name(), t.cluster(), t.jobs(), t.profiles(), opt.weightedJctS());
    }
    // several types and jobs that would run on all of them: the limit bites on 13 of the 60
    assertTrue("the cross-type limit raised " + raised + " of 60 relaxations", raised >= 10);
  }

  /** Checks one instance; 1 when the cross-type limit raised the relaxation, else 0. */
  private static int check(String where, ClusterSpec c, List<JobSpec> jobs, TaskTimeModel t,
      double optimum) {
    double bound = RelaxationBound.totalWeightedJctS(c, jobs, t);
    assertTrue(where + ": bound " + bound + " > optimum " + optimum, bound <= optimum + 1e-9);
    int raised = 0;
    for (int intervals : new int[] {2, 8, 32}) {
      double perType = relaxation(c, jobs, t, intervals, false);
      double cross = relaxation(c, jobs, t, intervals, true);
      assertTrue(where + ", " + intervals + " intervals: cross-type " + cross + " > optimum "
          + optimum, cross <= optimum + 1e-9);
      assertTrue(where + ", " + intervals + " intervals: cross-type " + cross + " < per type "
          + perType, cross >= perType - 1e-9);
      raised = cross > perType + 1e-6 ? 1 : raised;
    }
    return raised;
  }

  /** The planner's relaxation on its geometric grid, as a weighted JCT in seconds. */
  private static double relaxation(ClusterSpec c, List<JobSpec> jobs, TaskTimeModel t,
      int intervals, boolean crossType) {
    PlanningProblem p = RelaxationBound.offlineProblem(c, jobs, t);
    double arrivalsS = 0;
    for (PlanJob j : p.jobs()) {
      arrivalsS += j.weight() * (j.arrivalMs() - p.nowMs()) / 1000.0;
    }
    FluidSolution f = FluidRelaxation.solve(p,
        new FluidRelaxation.Options(intervals, 0, crossType));
    assertTrue("not optimal with " + intervals + " intervals", f.optimal());
    return f.objective() / 1000.0 - arrivalsS;
  }
}
