package io.hare.core.policy;

import io.hare.core.GpuType;

/** What a policy may know about one GPU. Read-only; the host updates it between calls. */
public interface GpuView {

  String id();

  GpuType type();

  String node();

  /** True while a task computes on it (a switch in progress counts as busy). */
  boolean busy();

  /** Job of the task running now, or of the last task run here; null if none ever ran. */
  String lastJobId();
}
