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

  /**
   * True when the GPU takes no task after its running one: its node fell silent or shrank, and
   * the host drops the GPU once that task ends (or never hears that it did). A plan should not
   * count on it freeing.
   */
  default boolean leaving() {
    return false;
  }
}
