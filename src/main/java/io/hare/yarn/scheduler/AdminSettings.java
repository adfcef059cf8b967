package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin part of the scheduler's settings, read and validated with the rest by
 * {@link HareSettings#read}: the host-to-GPU-model mapping file, the weight caps and the queues
 * ({@link QueueConfig}). Problems are recorded in the shared {@link PolicyConfig}, each naming the key.
 *
 * @param mapping the GPU-model mapping; {@link GpuTypeMapping#NONE} when no file is set
 * @param weightCaps the default, per-queue and per-user weight caps
 * @param queues the queues, their settings and the user and group mappings
 */
record AdminSettings(GpuTypeMapping mapping, WeightCaps weightCaps, QueueConfig queues) {

  static AdminSettings read(double weightMax, PolicyConfig t) {
    String file = t.getString(SchedulerKeys.GPU_TYPE_MAPPING_FILE,
        SchedulerKeys.DEFAULT_GPU_TYPE_MAPPING_FILE);
    List<String> fileProblems = new ArrayList<>();
    GpuTypeMapping mapping = GpuTypeMapping.read(file, fileProblems);
    for (String p : fileProblems) {
      t.addProblem(SchedulerKeys.GPU_TYPE_MAPPING_FILE + ": " + p);
    }
    return new AdminSettings(mapping, WeightCaps.read(weightMax, t.values(), t),
        QueueConfig.read(t));
  }
}
