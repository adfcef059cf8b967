package io.hare.core.profile;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;

/**
 * Where policies read a model's per-GPU-type task times. Implementations: a fixed
 * {@link ProfileTable} (the simulator's ground truth) or an {@link OnlineEstimator} that refines a
 * table from measured task durations (the ResourceManager).
 */
public interface TaskTimeModel {

  /** Times of one task of {@code model} on {@code type}, or null if the model cannot run there. */
  TaskTimes times(String model, GpuType type);
}
