package io.hare.core.plan;

import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An optimal schedule of what is left in a small cluster state, by CP-SAT: the online
 * counterpart of {@link ExactSolver}. Where {@code ExactSolver} schedules whole jobs from their
 * arrival on idle GPUs (the yardstick), this plans from a {@link PlanningProblem}: GPUs busy until
 * their running task ends, jobs part-way through a round, rounds still syncing. The result is a
 * {@link Plan} (a sequence per GPU) that a plan follower runs, as the paper's executors run a
 * list-scheduled one.
 *
 * <p>The model ({@link StateModel}) is {@code ExactSolver}'s, with the state: a busy GPU takes no
 * task before it frees; the unstarted tasks of a job's current round start at or after its
 * release and that round ends no earlier than its running tasks' syncs; the job's later rounds
 * follow barrier by barrier. Jobs whose last round is fully started are constant in the objective
 * and left out. It is exact for the jobs present: it cannot know arrivals to come, so a re-plan
 * at each arrival keeps it optimal for what is known.
 *
 * <p>The search is deterministic: one CP-SAT worker and a limit in CP-SAT's deterministic time,
 * never wall time, so the simulator and the ResourceManager, fed the same state, follow the same
 * plan. The solver starts from a greedy list schedule; a plan is returned only when it is proven
 * optimal: following one cut short by the limit did worse than priority dispatch on random
 * instances (README, "Exact plans for small states").
 */
public final class ExactPlanner {

  private final int maxTasks;
  private final int maxGpus;
  private final double workLimit;

  /**
   * @param maxTasks most unstarted tasks a state may have to be planned exactly, &gt;= 1
   * @param maxGpus most GPUs, &gt;= 1
   * @param workLimit CP-SAT's deterministic time limit per solve (about seconds on a current core),
   *     &gt; 0
   */
  public ExactPlanner(int maxTasks, int maxGpus, double workLimit) {
    if (maxTasks < 1 || maxGpus < 1 || !(workLimit > 0) || Double.isInfinite(workLimit)) {
      throw new IllegalArgumentException("exact planner: need maxTasks >= 1, maxGpus >= 1 and a "
          + "finite work limit > 0, got " + maxTasks + ", " + maxGpus + ", " + workLimit);
    }
    this.maxTasks = maxTasks;
    this.maxGpus = maxGpus;
    this.workLimit = workLimit;
  }

  /** Whether {@link #plan} would try this state: within the task and GPU limits. */
  public boolean fits(PlanningProblem p) {
    if (p.gpuCount() > maxGpus) {
      return false;
    }
    long tasks = 0;
    for (PlanJob j : p.jobs()) {
      tasks += j.unstartedTasks();
      if (tasks > maxTasks) {
        return false;
      }
    }
    return true;
  }

  /**
   * A plan CP-SAT proved optimal.
   *
   * @param predictedWeightedJctS total weighted JCT of the state's jobs if every task takes its
   *     estimated time
   */
  public record Result(Plan plan, double predictedWeightedJctS) {}

  /**
   * The optimal plan of the state, or empty when the state does not {@link #fits fit}, its numbers
   * cannot be made exact integers, or the limit hit before CP-SAT proved a plan optimal.
   */
  public Optional<Result> plan(PlanningProblem p) {
    if (!fits(p)) {
      return Optional.empty();
    }
    StateInstance in = StateInstance.of(p);
    if (in == null) {
      return Optional.empty();
    }
    if (in.taskCount() == 0) {
      return Optional.of(result(in, new long[0], new int[0]));
    }
    OrTools.load();
    StateModel model = new StateModel(in);
    long[] greedyStart = new long[in.taskCount()];
    int[] greedyGpu = new int[in.taskCount()];
    in.greedy(greedyStart, greedyGpu);
    model.hint(greedyStart, greedyGpu);
    CpSolver solver = new CpSolver();
    solver.getParameters().setNumWorkers(1).setMaxDeterministicTime(workLimit);
    CpSolverStatus status = solver.solve(model.model);
    if (status != CpSolverStatus.OPTIMAL) {
      return Optional.empty();
    }
    long[] start = new long[in.taskCount()];
    int[] gpu = new int[in.taskCount()];
    model.solution(solver, start, gpu);
    return Optional.of(result(in, start, gpu));
  }

  /** The schedule as a plan in the problem's absolute milliseconds. */
  private static Result result(StateInstance in, long[] start, int[] gpu) {
    Map<String, List<PlannedTask>> perGpu = new LinkedHashMap<>();
    Map<String, Long> completion = new LinkedHashMap<>();
    for (PlanJob j : in.p.jobs()) {
      completion.put(j.id(), Math.max(in.baseMs, j.committedEndMs())); // what runs already
    }
    for (int t = 0; t < in.taskCount(); t++) {
      int m = gpu[t];
      long s = start[t];
      long computed = s + in.compute(t, m);
      perGpu.computeIfAbsent(in.p.gpuIds()[m], x -> new ArrayList<>()).add(new PlannedTask(
          in.job(t).id(), in.job(t).groupRound(in.taskGroup[t]), in.baseMs + s,
          in.baseMs + computed));
      completion.merge(in.job(t).id(), in.baseMs + computed + in.sync(t, m), Math::max);
    }
    perGpu.values().forEach(l -> l.sort(Comparator.comparingLong(PlannedTask::startMs)));
    Plan plan = new Plan(perGpu, completion, true);
    return new Result(plan, plan.predictedWeightedJctS(in.p));
  }
}
