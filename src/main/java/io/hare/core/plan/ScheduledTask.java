package io.hare.core.plan;

import io.hare.core.GpuType;
import java.util.Objects;

/**
 * One task of a planned schedule: where and when it runs. Times are integer milliseconds on the
 * jobs' clock; the GPU is busy over {@code [startMs, computeEndMs)} and the task's gradient is
 * applied at {@code syncEndMs}.
 */
public record ScheduledTask(String jobId, int round, int index, String gpuId, GpuType gpuType,
    long startMs, long computeEndMs, long syncEndMs) {

  public ScheduledTask {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(gpuId, "gpuId");
    Objects.requireNonNull(gpuType, "gpuType");
    if (!(startMs < computeEndMs && computeEndMs <= syncEndMs)) {
      throw new IllegalArgumentException("task " + jobId + "/" + round + "/" + index
          + ": need start < compute end <= sync end, got " + startMs + ", " + computeEndMs + ", "
          + syncEndMs);
    }
  }
}
