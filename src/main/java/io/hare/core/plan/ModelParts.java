package io.hare.core.plan;

import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CumulativeConstraint;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.IntervalVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import com.google.ortools.sat.Literal;
import java.util.ArrayList;
import java.util.List;

/** What {@link ExactModel} and {@link StateModel} state alike: a task's GPU choice, symmetry. */
final class ModelParts {

  private ModelParts() {}

  /**
   * Task {@code t} on exactly one GPU of those it can use: an optional interval on that GPU's
   * list in {@code busy}, and one interval of its compute on {@code anyGpu}, in ticks of
   * {@code times}. Fills {@code on[m]} for the GPUs it can use.
   *
   * @return the task's start plus the chosen GPU's compute and sync: when it has synced
   */
  static LinearExpr task(CpModel model, int t, IntVar start, TaskGpuTimes times, BoolVar[] on,
      List<List<IntervalVar>> busy, CumulativeConstraint anyGpu, long horizon) {
    List<Literal> choices = new ArrayList<>();
    LinearExprBuilder compute = LinearExpr.newBuilder();
    LinearExprBuilder synced = LinearExpr.newBuilder().add(start);
    long minCompute = Long.MAX_VALUE;
    for (int m = 0; m < times.gpuCount(); m++) {
      if (times.eligible(t, m)) {
        long computeTicks = times.compute(t, m) / times.tickMs();
        on[m] = model.newBoolVar("on_" + t + "_" + m);
        choices.add(on[m]);
        busy.get(m).add(model.newOptionalFixedSizeIntervalVar(start, computeTicks, on[m],
            "run_" + t + "_" + m));
        compute.addTerm(on[m], computeTicks);
        minCompute = Math.min(minCompute, computeTicks);
        synced.addTerm(on[m], (times.compute(t, m) + times.sync(t, m)) / times.tickMs());
      }
    }
    model.addExactlyOne(choices);
    // CP-SAT wants an interval's size and end as single variables
    IntVar size = model.newIntVar(minCompute, horizon, "size_" + t);
    model.addEquality(size, compute.build());
    IntVar end = model.newIntVar(0, 2 * horizon, "free_" + t);
    model.addEquality(end, LinearExpr.newBuilder().add(start).add(size).build());
    anyGpu.addDemand(model.newIntervalVar(start, size, end, "any_" + t), 1);
    return synced.build();
  }

  /**
   * GPUs of one group, in order: GPU number p+1 may run task t only if GPU p runs some task
   * before t. Valid for GPUs that are interchangeable (any schedule can be relabelled so: sort
   * them by their first task).
   */
  static void breakSymmetry(CpModel model, BoolVar[][] on, List<List<Integer>> groups) {
    for (List<Integer> group : groups) {
      for (int p = 1; p < group.size(); p++) {
        int prev = group.get(p - 1);
        int cur = group.get(p);
        LinearExprBuilder usedBefore = LinearExpr.newBuilder();
        for (BoolVar[] task : on) {
          if (task[cur] != null) { // same group: eligible on prev too
            model.addLessOrEqual(task[cur], usedBefore.build());
            usedBefore.add(task[prev]);
          }
        }
      }
    }
  }
}
