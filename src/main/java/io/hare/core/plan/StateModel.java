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
 * The CP-SAT model of a {@link StateInstance}: {@link ExactModel}'s, from a state.
 * Times are in ticks of the instance's greatest common divisor (see {@code ExactModel}), counted
 * from the planning instant.
 */
final class StateModel {

  final CpModel model = new CpModel();
  private final StateInstance in;
  private final IntVar[] start;
  private final BoolVar[][] on;
  private final IntVar[][] groupEnd;

  StateModel(StateInstance in) {
    this.in = in;
    int tasks = in.taskCount();
    long horizon = in.horizonMs / in.tickMs;
    start = new IntVar[tasks];
    on = new BoolVar[tasks][in.gpuCount()];
    groupEnd = new IntVar[in.jobCount()][];
    for (int j = 0; j < in.jobCount(); j++) {
      groupEnd[j] = new IntVar[in.jobs[j].groups()];
      for (int q = 0; q < groupEnd[j].length; q++) {
        // the current round ends no earlier than the syncs of its running tasks
        groupEnd[j][q] = model.newIntVar(q == 0 ? ticks(in.floorMs[j]) : 0, 2 * horizon,
            "end_" + j + "_" + q);
      }
    }
    List<List<IntervalVar>> busy = new ArrayList<>();
    CumulativeConstraint anyGpu = model.addCumulative(in.gpuCount());
    for (int m = 0; m < in.gpuCount(); m++) {
      busy.add(new ArrayList<>());
      if (in.gpuFreeMs[m] > 0) { // its running task
        IntervalVar running = model.newFixedInterval(0, ticks(in.gpuFreeMs[m]), "busy_" + m);
        busy.get(m).add(running);
        anyGpu.addDemand(running, 1);
      }
    }
    for (int t = 0; t < tasks; t++) {
      int j = in.taskJob[t];
      int q = in.taskGroup[t];
      start[t] = model.newIntVar(q == 0 ? ticks(in.releaseMs[j]) : 0, horizon, "start_" + t);
      LinearExpr synced = ModelParts.task(model, t, start[t], in, on[t], busy, anyGpu, horizon);
      model.addGreaterOrEqual(groupEnd[j][q], synced);
      if (q > 0) {
        model.addGreaterOrEqual(start[t], groupEnd[j][q - 1]);
      }
      if (in.taskIndex[t] > 0) {
        model.addLessOrEqual(start[t - 1], start[t]); // identical tasks of a group: index order
      }
    }
    for (List<IntervalVar> gpu : busy) {
      model.addNoOverlap(gpu);
    }
    // GPUs of one type and free time are interchangeable
    ModelParts.breakSymmetry(model, on, in.interchangeable());
    LinearExprBuilder objective = LinearExpr.newBuilder();
    for (int j = 0; j < in.jobCount(); j++) {
      objective.addTerm(groupEnd[j][groupEnd[j].length - 1], in.scaledWeight[j]);
    }
    model.minimize(objective.build());
  }

  private long ticks(long ms) {
    return ms / in.tickMs;
  }

  /** Starts the search from a schedule that satisfies the symmetry breaking. */
  void hint(long[] startMs, int[] gpu) {
    long[][] end = new long[in.jobCount()][];
    for (int j = 0; j < end.length; j++) {
      end[j] = new long[groupEnd[j].length];
      if (end[j].length > 0) {
        end[j][0] = in.floorMs[j];
      }
    }
    for (int t = 0; t < in.taskCount(); t++) {
      model.addHint(start[t], ticks(startMs[t]));
      for (int m = 0; m < in.gpuCount(); m++) {
        if (on[t][m] != null) {
          model.addHint(on[t][m], gpu[t] == m);
        }
      }
      int j = in.taskJob[t];
      int q = in.taskGroup[t];
      end[j][q] = Math.max(end[j][q], startMs[t] + in.compute(t, gpu[t]) + in.sync(t, gpu[t]));
    }
    for (int j = 0; j < end.length; j++) {
      for (int q = 0; q < end[j].length; q++) {
        model.addHint(groupEnd[j][q], ticks(end[j][q]));
      }
    }
  }

  /** The solver's schedule, in milliseconds from the planning instant. */
  void solution(CpSolver solver, long[] startMs, int[] gpu) {
    for (int t = 0; t < in.taskCount(); t++) {
      startMs[t] = solver.value(start[t]) * in.tickMs;
      for (int m = 0; m < in.gpuCount(); m++) {
        if (on[t][m] != null && solver.booleanValue(on[t][m])) {
          gpu[t] = m;
        }
      }
    }
  }
}
