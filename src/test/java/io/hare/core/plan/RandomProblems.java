package io.hare.core.plan;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Small random planning problems full of ties (few weights, times, arrivals and sizes), with jobs
 * that have no group left, jobs past {@link PlanJob#MAX_ORDERED_GROUPS}, and jobs that can run
 * only on types without GPUs (keyed +infinity): the cases where two ways of ordering could part.
 */
public final class RandomProblems {

  private RandomProblems() {}

  public static PlanningProblem of(Random r) {
    int typeCount = 1 + r.nextInt(3);
    List<GpuType> types = new ArrayList<>();
    for (int t = 0; t < typeCount; t++) {
      types.add(GpuType.of("t" + t));
    }
    // type 0 always has GPUs; the others may have none
    int gpus = 1 + r.nextInt(6);
    int[] gpuType = new int[gpus];
    long[] free = new long[gpus];
    String[] ids = new String[gpus];
    for (int i = 0; i < gpus; i++) {
      gpuType[i] = i == 0 ? 0 : r.nextInt(typeCount);
      free[i] = r.nextInt(3) * 100L;
      ids[i] = "g" + i;
    }
    int jobCount = r.nextInt(40);
    List<PlanJob> jobs = new ArrayList<>();
    for (int n = 0; n < jobCount; n++) {
      int k = 1 + r.nextInt(4);
      int fullRounds = r.nextInt(20) == 0 ? PlanJob.MAX_ORDERED_GROUPS + r.nextInt(3)
          : r.nextInt(6);
      int firstGroup = r.nextInt(k + 1);
      TaskTimes[] times = new TaskTimes[typeCount];
      for (int t = 0; t < typeCount; t++) {
        if (t == 0 ? r.nextInt(8) > 0 : r.nextBoolean()) {
          times[t] = new TaskTimes(100 * (1 + r.nextInt(3)), 10 * r.nextInt(3));
        }
      }
      // ids out of index order, so that ties by id differ from ties by index
      String id = "j" + (char) ('a' + r.nextInt(26)) + n;
      jobs.add(new PlanJob(id, 1 + r.nextInt(3), r.nextInt(3) * 50L, 0, k, r.nextInt(3),
          firstGroup, fullRounds, times, 0));
    }
    return new PlanningProblem(0, types, gpuType, free, ids, jobs);
  }
}
