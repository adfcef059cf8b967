package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.core.plan.ExactSolver;
import io.hare.sim.SimOptions;
import io.hare.sim.report.ExactOptimum;
import io.hare.sim.workload.Workload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hare simulate --exact}: the proven optimum of a tiny workload by CP-SAT
 * ({@link ExactSolver}), reported beside the lower bound. Checked before any simulation runs, so
 * a workload too big for it, or a run whose times the solver does not model (switch costs,
 * profile error), is refused at once with the limit named.
 */
final class ExactOption {

  private static final Logger LOG = LoggerFactory.getLogger(ExactOption.class);
  /** Most CP-SAT workers: beyond a few they only contend for the same cores. */
  private static final int MAX_WORKERS = 8;

  private final double timeLimitS;

  private ExactOption(double timeLimitS) {
    this.timeLimitS = timeLimitS;
  }

  /**
   * The option as given, checked against the workload and the simulation options.
   *
   * @throws BadInputException naming what stands in the way
   */
  static ExactOption check(double timeLimitS, Workload w, ClusterSpec c, SimOptions o)
      throws BadInputException {
    if (!(timeLimitS > 0) || Double.isInfinite(timeLimitS)) {
      throw new BadInputException("--exact-time-limit-s: must be finite and > 0, got "
          + timeLimitS);
    }
    if (o.switchMs() > 0) {
      throw new BadInputException("--exact: the exact solver has no switch cost; run it with "
          + "--switch-ms 0");
    }
    if (o.profileError().any()) {
      throw new BadInputException("--exact: the exact solver takes the profiles as the true "
          + "times; run it without yarn.hare.sim.profile-noise or profile-bias");
    }
    try {
      ExactSolver.check(c, w.jobs(), w.profiles());
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--exact: " + e.getMessage());
    }
    return new ExactOption(timeLimitS);
  }

  ExactOptimum solve(Workload w, ClusterSpec c) {
    int workers = Math.max(1, Math.min(MAX_WORKERS, Runtime.getRuntime().availableProcessors()));
    ExactOptimum e = ExactOptimum.of(new ExactSolver(timeLimitS, workers).solve(c, w.jobs(),
        w.profiles()));
    LOG.info("exact optimum {} s ({}) in {} s", String.format("%.1f", e.totalWeightedJctS()),
        e.proven() ? "proven" : "not proven", String.format("%.1f", e.solveS()));
    return e;
  }
}
