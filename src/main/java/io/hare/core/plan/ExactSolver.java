package io.hare.core.plan;

import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.TaskTimeModel;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exact minimum total weighted JCT of a tiny instance, by CP-SAT: the yardstick against
 * which the relaxation bound and the heuristics are measured on instances small enough to solve.
 *
 * <p>Model (DESIGN.md section 1, the paper's Hare_Sched): every task (job, round, index) runs
 * once, on exactly one GPU whose type has a profile for the job's model (one optional interval
 * per eligible GPU, exactly one present); compute intervals on one GPU do not overlap; no task
 * starts before its job arrives; every task of round r+1 starts at or after every task of round r
 * has ended its compute plus its sync (both depend on the GPU chosen); a job completes when its
 * last round's tasks have all synced. The objective is the sum of weight x completion time, which
 * differs from the weighted JCT only by the constant sum of weight x arrival. Times are integer
 * milliseconds rounded as the simulator rounds them: compute max(1, round(ms)), sync round(ms);
 * weights are scaled to integers by the smallest power of ten (at most 10^6) that makes them so.
 *
 * <p>Two symmetries are broken, both valid because relabelling changes no time: the k identical
 * tasks of a round start in index order, and of several GPUs of one type the second is used only
 * after the first has run an earlier task (tasks in job, round, index order), and so on. Two
 * more things only speed the proof (see {@link ExactModel}): times are counted in units of their
 * greatest common divisor, and a redundant cumulative constraint says that at most as many tasks
 * compute at once as there are GPUs.
 *
 * <p>A greedy list schedule seeds the search as a hint. If the time limit hits, the best schedule
 * found is returned with {@link ExactSchedule.Status#FEASIBLE}, or the greedy one with
 * {@link ExactSchedule.Status#HEURISTIC} if CP-SAT found none. Instances above
 * {@link #MAX_TASKS} tasks or {@link #MAX_GPUS} GPUs are refused: this is for cross-checks, not
 * for cluster-scale planning.
 */
public final class ExactSolver {

  /** Most tasks (rounds x tasks per round, summed over jobs) an instance may have. */
  public static final int MAX_TASKS = 100;
  /** Most GPUs an instance may have. */
  public static final int MAX_GPUS = 32;

  private static final Logger LOG = LoggerFactory.getLogger(ExactSolver.class);

  private final double timeLimitS;
  private final int workers;

  /**
   * @param timeLimitS wall-clock limit of one solve, seconds, &gt; 0
   * @param workers CP-SAT search workers, 1..64; 1 makes the search deterministic
   */
  public ExactSolver(double timeLimitS, int workers) {
    if (!(timeLimitS > 0) || Double.isInfinite(timeLimitS)) {
      throw new IllegalArgumentException("time limit must be finite and > 0 s, got " + timeLimitS);
    }
    if (workers < 1 || workers > 64) {
      throw new IllegalArgumentException("workers must be in 1..64, got " + workers);
    }
    this.timeLimitS = timeLimitS;
    this.workers = workers;
  }

  /**
   * Checks, without solving, that {@link #solve} would take the instance: within
   * {@link #MAX_TASKS} tasks and {@link #MAX_GPUS} GPUs, every job runnable on some GPU, job ids
   * distinct, weights that can be made integer.
   *
   * @throws IllegalArgumentException naming the first problem (and the limit when it is the size)
   */
  public static void check(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel times) {
    TinyInstance.of(cluster, jobs, times);
  }

  /**
   * Solves one instance.
   *
   * @throws IllegalArgumentException if the instance is too big (see {@link #MAX_TASKS},
   *     {@link #MAX_GPUS}), a job cannot run on any GPU of the cluster, job ids repeat, or the
   *     weights cannot be made integer
   */
  public ExactSchedule solve(ClusterSpec cluster, List<JobSpec> jobs, TaskTimeModel times) {
    TinyInstance in = TinyInstance.of(cluster, jobs, times);
    Placement greedy = Placement.greedy(in).canonical(in);
    if (in.taskCount() == 0) {
      return in.toSchedule(greedy, ExactSchedule.Status.OPTIMAL, 0, 0);
    }
    OrTools.load();
    ExactModel model = new ExactModel(in);
    model.hint(greedy);
    CpSolver solver = new CpSolver();
    solver.getParameters().setMaxTimeInSeconds(timeLimitS).setNumWorkers(workers);
    CpSolverStatus status = solver.solve(model.model);
    double wallS = solver.wallTime();
    LOG.debug("exact solve of {} tasks on {} GPUs: {} in {} s", in.taskCount(), in.gpuCount(),
        status, wallS);
    double weightedArrivalMs = 0;
    for (JobSpec job : in.jobs) {
      weightedArrivalMs += job.weight() * job.arrivalMs();
    }
    double boundS = (model.completionBoundMs(solver) - weightedArrivalMs) / 1000.0;
    if (!(boundS > 0)) {
      boundS = 0; // no bound yet (CP-SAT may answer -infinity): JCTs are never negative
    }
    switch (status) {
      case OPTIMAL:
        return in.toSchedule(model.solution(solver), ExactSchedule.Status.OPTIMAL,
            Double.POSITIVE_INFINITY, wallS);
      case FEASIBLE:
        return in.toSchedule(model.solution(solver), ExactSchedule.Status.FEASIBLE, boundS,
            wallS);
      case UNKNOWN:
        return in.toSchedule(greedy, ExactSchedule.Status.HEURISTIC, boundS, wallS);
      default:
        // the greedy schedule proves the instance feasible, so this is a bug in the model
        throw new IllegalStateException("exact solver: CP-SAT answered " + status
            + " on a feasible instance: " + solver.getSolutionInfo());
    }
  }
}
