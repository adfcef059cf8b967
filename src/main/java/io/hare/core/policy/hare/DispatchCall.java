package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One {@link PriorityDispatcher} call: the slots of every type as this call has used them so far,
 * how many offered GPUs are still free, and the assignments made. Slots are indexed by the
 * type's position in the cluster's type list, so the per-job work hashes nothing.
 */
final class DispatchCall {

  final ClusterView cluster;
  final long nowMs;
  final List<GpuType> types;
  final List<Assignment> out = new ArrayList<>();
  private final HareTracker tracker;
  private final Map<GpuType, List<GpuView>> freeByType;
  private final TypeSlots[] slots;
  /** The dispatcher's slots by type index, reset for this call when first used. */
  private final TypeSlots[] pool;
  int free;
  /** Free GPUs held in this call for jobs between rounds, still open to backfilling. */
  int held;
  /** When the earliest hold made in this call lapses; {@code Long.MAX_VALUE} if none. */
  long holdLapsesMs = Long.MAX_VALUE;
  /** Some ready task chose to wait for a busy GPU. */
  boolean someWait;

  /**
   * @param pool slots to reuse, by type index, at least as many as the cluster has types; an
   *     empty place is filled with new slots (kept for the next call)
   */
  DispatchCall(ClusterView cluster, Map<GpuType, List<GpuView>> freeByType, int free,
      long nowMs, HareTracker tracker, TypeSlots[] pool) {
    this.cluster = cluster;
    this.nowMs = nowMs;
    this.tracker = tracker;
    this.freeByType = freeByType;
    this.free = free;
    this.types = cluster.gpuTypes();
    this.slots = new TypeSlots[types.size()];
    this.pool = pool;
  }

  TypeSlots slots(int typeIndex) {
    TypeSlots s = slots[typeIndex];
    if (s == null) {
      GpuType t = types.get(typeIndex);
      List<GpuView> free = freeByType.getOrDefault(t, List.of());
      if (pool[typeIndex] == null) {
        pool[typeIndex] = new TypeSlots(nowMs, free, tracker.busyEnds(t));
      }
      s = pool[typeIndex].reset(nowMs, free, tracker.busyEnds(t));
      slots[typeIndex] = s;
    }
    return s;
  }
}
