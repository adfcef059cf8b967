package io.hare.core.plan;

import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CumulativeConstraint;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.IntervalVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The CP-SAT model of a {@link TinyInstance}; see {@link ExactSolver} for what it states.
 *
 * <p>Times in the model are in ticks of {@link TinyInstance#tickMs}, the greatest common divisor
 * of all task times and arrivals: every start of a schedule without needless idling is a sum of
 * those, so nothing optimal is lost, and the search works on values that many times smaller.
 */
final class ExactModel {

  final CpModel model = new CpModel();
  private final TinyInstance in;
  private final IntVar[] start;
  private final BoolVar[][] on;
  private final IntVar[][] roundEnd;

  ExactModel(TinyInstance in) {
    this.in = in;
    int tasks = in.taskCount();
    long horizon = in.horizonMs / in.tickMs;
    start = new IntVar[tasks];
    on = new BoolVar[tasks][in.gpuCount()];
    roundEnd = new IntVar[in.jobs.size()][];
    for (int j = 0; j < in.jobs.size(); j++) {
      roundEnd[j] = new IntVar[in.jobs.get(j).rounds()];
      for (int r = 0; r < roundEnd[j].length; r++) {
        roundEnd[j][r] = model.newIntVar(ticks(in.jobs.get(j).arrivalMs()), horizon,
            "end_" + j + "_" + r);
      }
    }
    List<List<IntervalVar>> busy = new ArrayList<>();
    for (int m = 0; m < in.gpuCount(); m++) {
      busy.add(new ArrayList<>());
    }
    // redundant: at most as many tasks compute at once as there are GPUs. The per-GPU
    // NoOverlap implies it, but this global view gives CP-SAT much stronger bounds.
    CumulativeConstraint anyGpu = model.addCumulative(in.gpuCount());
    for (int t = 0; t < tasks; t++) {
      int j = in.taskJob[t];
      int r = in.taskRound[t];
      start[t] = model.newIntVar(ticks(in.job(t).arrivalMs()), horizon, "start_" + t);
      LinearExpr synced = ModelParts.task(model, t, start[t], in, on[t], busy, anyGpu, horizon);
      // round end >= this task's compute + sync; minimising completion makes it the max
      model.addGreaterOrEqual(roundEnd[j][r], synced);
      if (r > 0) {
        model.addGreaterOrEqual(start[t], roundEnd[j][r - 1]);
      }
      if (in.taskIndex[t] > 0) {
        model.addLessOrEqual(start[t - 1], start[t]); // identical tasks of a round: index order
      }
    }
    for (List<IntervalVar> gpu : busy) {
      model.addNoOverlap(gpu);
    }
    // GPUs of one type are interchangeable
    ModelParts.breakSymmetry(model, on, in.typeGroups());
    LinearExprBuilder objective = LinearExpr.newBuilder();
    for (int j = 0; j < in.jobs.size(); j++) {
      objective.addTerm(roundEnd[j][roundEnd[j].length - 1], in.scaledWeight[j]);
    }
    model.minimize(objective.build());
  }

  private long ticks(long ms) {
    return ms / in.tickMs;
  }


  /** Starts the search from a schedule that satisfies the symmetry breaking. */
  void hint(Placement s) {
    long[][] end = new long[in.jobs.size()][];
    for (int j = 0; j < end.length; j++) {
      end[j] = new long[roundEnd[j].length];
    }
    for (int t = 0; t < in.taskCount(); t++) {
      model.addHint(start[t], ticks(s.startMs[t]));
      for (int m = 0; m < in.gpuCount(); m++) {
        if (on[t][m] != null) {
          model.addHint(on[t][m], s.gpuOf[t] == m);
        }
      }
      int m = s.gpuOf[t];
      int j = in.taskJob[t];
      int r = in.taskRound[t];
      end[j][r] = Math.max(end[j][r], s.startMs[t] + in.compute(t, m) + in.sync(t, m));
    }
    for (int j = 0; j < end.length; j++) {
      for (int r = 0; r < end[j].length; r++) {
        model.addHint(roundEnd[j][r], ticks(end[j][r]));
      }
    }
  }

  /** The solver's schedule, in milliseconds. */
  Placement solution(CpSolver solver) {
    int[] gpuOf = new int[in.taskCount()];
    long[] startMs = new long[in.taskCount()];
    for (int t = 0; t < in.taskCount(); t++) {
      startMs[t] = solver.value(start[t]) * in.tickMs;
      for (int m = 0; m < in.gpuCount(); m++) {
        if (on[t][m] != null && solver.booleanValue(on[t][m])) {
          gpuOf[t] = m;
        }
      }
    }
    return new Placement(gpuOf, startMs);
  }

  /** The solver's lower bound on sum of weight x completion, in weighted milliseconds. */
  double completionBoundMs(CpSolver solver) {
    return solver.bestObjectiveBound() * in.tickMs / in.weightScale;
  }
}
