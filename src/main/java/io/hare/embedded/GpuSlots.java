package io.hare.embedded;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which GPU slot of its node each task ran in. A NodeManager with a static {@code yarn.io/gpu}
 * count does not name the GPU a container got, but the scheduler never runs more containers on a
 * node than it has GPUs, so the tasks of a node, taken by start time, fit into that many slots
 * with the first slot free at each start (interval-graph colouring, optimal when greedy by
 * start). A task that finds no free slot (clocks of processes that overlap by a millisecond)
 * gets a new slot past the node's count, which a report shows rather than hides.
 */
public final class GpuSlots {

  private GpuSlots() {}

  /**
   * Slots for the attempts of one node, by identity of the attempt; an attempt without an end
   * holds its slot to the end of time.
   */
  public static Map<TaskEvents.Attempt, Integer> assign(List<TaskEvents.Attempt> onOneNode) {
    return assign(onOneNode, Map.of());
  }

  /**
   * The GPU of each attempt of one node: the device index its process saw, when every attempt
   * saw one (a node where Hare assigns devices); else slots as {@link #assign(List, Map)}.
   */
  public static Map<TaskEvents.Attempt, Integer> devicesOrSlots(
      List<TaskEvents.Attempt> onOneNode, Map<String, Long> goneMs) {
    Map<TaskEvents.Attempt, Integer> devices = new HashMap<>();
    for (TaskEvents.Attempt a : onOneNode) {
      if (!a.gpuDevice().matches("[0-9]{1,6}")) {
        return assign(onOneNode, goneMs);
      }
      devices.put(a, Integer.parseInt(a.gpuDevice()));
    }
    return devices;
  }

  /**
   * Slots for the attempts of one node; an attempt without an end (its process was killed, or
   * its node lost) holds its slot until {@code goneMs} of its container (when YARN saw the
   * container end), or to the end of time if YARN never did.
   */
  public static Map<TaskEvents.Attempt, Integer> assign(List<TaskEvents.Attempt> onOneNode,
      Map<String, Long> goneMs) {
    List<TaskEvents.Attempt> byStart = new ArrayList<>(onOneNode);
    byStart.sort(Comparator.comparingLong(TaskEvents.Attempt::startMs));
    List<Long> freeAt = new ArrayList<>();
    Map<TaskEvents.Attempt, Integer> slots = new HashMap<>();
    for (TaskEvents.Attempt a : byStart) {
      int slot = -1;
      for (int i = 0; i < freeAt.size() && slot < 0; i++) {
        if (freeAt.get(i) <= a.startMs()) {
          slot = i;
        }
      }
      long end = a.ended() ? a.endMs() : goneMs.getOrDefault(a.containerId(), Long.MAX_VALUE);
      if (slot < 0) {
        slot = freeAt.size();
        freeAt.add(end);
      } else {
        freeAt.set(slot, end);
      }
      slots.put(a, slot);
    }
    return slots;
  }
}
