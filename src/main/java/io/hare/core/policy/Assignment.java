package io.hare.core.policy;

import java.util.Objects;

/** A decision: start one ready task of {@code jobId} on the free GPU {@code gpuId} now. */
public record Assignment(String gpuId, String jobId) {

  public Assignment {
    Objects.requireNonNull(gpuId, "gpuId");
    Objects.requireNonNull(jobId, "jobId");
  }
}
