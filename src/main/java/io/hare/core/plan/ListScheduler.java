package io.hare.core.plan;

import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Step 3 of Algorithm 1: list scheduling. Tasks are taken in the given order; each goes to a GPU
 * and starts at max(GPU free, end of its previous round including sync); the GPU is then busy for
 * the compute time only (sync runs off the GPU but gates the next round).
 *
 * <p>Two ways to choose the GPU:
 * <ul>
 *   <li>{@link GpuChoice#EARLIEST_FREE}: the paper's rule, the GPU that becomes free first
 *       (heterogeneity enters only through the order);
 *   <li>{@link GpuChoice#EARLIEST_FINISH}: ours, the GPU on which the task would finish compute
 *       and sync earliest, so a task waits a moment for a much faster type rather than taking a
 *       slow one that happens to be free.
 * </ul>
 * Only GPUs of types the job can run on are considered. Within a type, the earliest-free GPU is
 * always the best, so each choice costs O(types x log GPUs). A switch cost is added when a GPU
 * changes job.
 */
public final class ListScheduler {

  public enum GpuChoice { EARLIEST_FREE, EARLIEST_FINISH }

  /**
   * @param switchMs expected cost of a GPU changing job, &gt;= 0
   * @param maxTasks stop planning after this many tasks (the rest stays unplanned)
   */
  public record Options(GpuChoice choice, long switchMs, int maxTasks) {}

  private ListScheduler() {}

  private record Slot(double freeMs, int gpu) {}

  public static Plan schedule(PlanningProblem p, List<GroupRef> order, Options o,
      String[] lastJobOnGpu) {
    int types = p.types().size();
    List<PriorityQueue<Slot>> byType = new ArrayList<>();
    for (int m = 0; m < types; m++) {
      byType.add(new PriorityQueue<>((a, b) -> a.freeMs() != b.freeMs()
          ? Double.compare(a.freeMs(), b.freeMs()) : Integer.compare(a.gpu(), b.gpu())));
    }
    String[] last = lastJobOnGpu.clone();
    for (int i = 0; i < p.gpuCount(); i++) {
      byType.get(p.gpuType()[i]).add(new Slot(Math.max(p.nowMs(), p.gpuFreeMs()[i]), i));
    }
    Map<String, List<PlannedTask>> perGpu = new LinkedHashMap<>();
    for (String id : p.gpuIds()) {
      perGpu.put(id, new ArrayList<>());
    }
    // end of each job's latest planned group (compute + sync), which gates its next group
    Map<Integer, Double> groupEnd = new HashMap<>();
    Map<Integer, Integer> lastGroup = new HashMap<>();
    Map<String, Long> completion = new HashMap<>();
    int planned = 0;
    boolean complete = true;
    for (GroupRef ref : order) {
      PlanJob j = p.jobs().get(ref.job());
      Integer prev = lastGroup.get(ref.job());
      if ((prev == null && ref.group() != 0) || (prev != null && prev != ref.group() - 1)) {
        throw new IllegalArgumentException("order puts group " + ref.group() + " of job "
            + j.id() + " before group " + (prev == null ? 0 : prev + 1));
      }
      double ready = ref.group() == 0 ? Math.max(p.nowMs(), j.releaseMs())
          : groupEnd.get(ref.job());
      double end = ref.group() == 0 ? j.committedEndMs() : ready;
      int size = j.groupSize(ref.group());
      if (planned + size > o.maxTasks()) {
        complete = false;
        break;
      }
      for (int task = 0; task < size; task++) {
        int bestType = -1;
        double bestKey = Double.POSITIVE_INFINITY;
        double bestStart = 0;
        for (int m = 0; m < types; m++) {
          TaskTimes tt = j.times(m);
          Slot top = byType.get(m).peek();
          if (tt == null || top == null) {
            continue;
          }
          double sw = o.switchMs() > 0 && !j.id().equals(last[top.gpu()]) && last[top.gpu()] != null
              ? o.switchMs() : 0;
          double start = Math.max(ready, top.freeMs());
          double key = o.choice() == GpuChoice.EARLIEST_FREE ? top.freeMs()
              : start + sw + tt.computeMs() + tt.syncMs();
          if (key < bestKey || (key == bestKey && bestType >= 0
              && top.gpu() < byType.get(bestType).peek().gpu())) {
            bestKey = key;
            bestType = m;
            bestStart = start;
          }
        }
        if (bestType < 0) {
          throw new IllegalArgumentException("job " + j.id() + " has no GPU type it can run on");
        }
        Slot s = byType.get(bestType).poll();
        TaskTimes tt = j.times(bestType);
        double sw = o.switchMs() > 0 && !j.id().equals(last[s.gpu()]) && last[s.gpu()] != null
            ? o.switchMs() : 0;
        double computeEnd = bestStart + sw + tt.computeMs();
        byType.get(bestType).add(new Slot(computeEnd, s.gpu()));
        last[s.gpu()] = j.id();
        end = Math.max(end, computeEnd + tt.syncMs());
        perGpu.get(p.gpuIds()[s.gpu()]).add(new PlannedTask(j.id(), j.groupRound(ref.group()),
            Math.round(bestStart), Math.round(computeEnd)));
      }
      planned += size;
      groupEnd.put(ref.job(), end);
      lastGroup.put(ref.job(), ref.group());
      if (ref.group() == j.groups() - 1) {
        completion.put(j.id(), Math.round(end));
      }
    }
    return new Plan(perGpu, completion, complete);
  }
}
