package io.hare.bench;

import io.hare.embedded.GpuSlots;
import io.hare.embedded.TaskEvents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The switches of a run, from the task processes' own records ({@link TaskEvents}): on each GPU
 * slot of each node, the gap from one task's end to the next task's start, and whether the next
 * task was of the same job. Only gaps inside the busy window count: from {@code windowStartMs}
 * (e.g. when every job's AM has registered and asked: before, a GPU may sit idle while
 * ApplicationMasters start) to {@code windowEndMs} (when demand starts to fall, e.g. the first
 * job finishing), so a GPU idle because no task was there yet, or left, is not called a switch.
 *
 * @param sameJob gaps between two tasks of one job, ms
 * @param crossJob gaps between tasks of different jobs, ms
 * @param taskMs compute time of the tasks that follow those gaps, ms
 */
public record SwitchGaps(List<Long> sameJob, List<Long> crossJob, long taskMs) {

  /** The gaps of the successful attempts of {@code attempts} (all jobs, all nodes). */
  public static SwitchGaps of(List<TaskEvents.Attempt> attempts, long windowStartMs,
      long windowEndMs) {
    Map<String, List<TaskEvents.Attempt>> byHost = new HashMap<>();
    for (TaskEvents.Attempt a : attempts) {
      if (a.succeeded()) {
        byHost.computeIfAbsent(a.host(), h -> new ArrayList<>()).add(a);
      }
    }
    List<Long> same = new ArrayList<>();
    List<Long> cross = new ArrayList<>();
    long busy = 0;
    for (List<TaskEvents.Attempt> onNode : byHost.values()) {
      Map<TaskEvents.Attempt, Integer> slots = GpuSlots.assign(onNode);
      Map<Integer, List<TaskEvents.Attempt>> bySlot = new HashMap<>();
      onNode.forEach(a -> bySlot.computeIfAbsent(slots.get(a), s -> new ArrayList<>()).add(a));
      for (List<TaskEvents.Attempt> seq : bySlot.values()) {
        seq.sort(Comparator.comparingLong(TaskEvents.Attempt::startMs));
        for (int i = 1; i < seq.size(); i++) {
          TaskEvents.Attempt prev = seq.get(i - 1);
          TaskEvents.Attempt next = seq.get(i);
          if (next.endMs() > windowEndMs) {
            break;
          }
          if (prev.endMs() < windowStartMs) {
            continue;
          }
          long gap = Math.max(0, next.startMs() - prev.endMs());
          (prev.appId().equals(next.appId()) ? same : cross).add(gap);
          busy += next.durationMs();
        }
      }
    }
    return new SwitchGaps(same, cross, busy);
  }

  public List<Long> all() {
    List<Long> all = new ArrayList<>(sameJob);
    all.addAll(crossJob);
    return all;
  }

  /** Switch time over switch plus task time, in [0, 1]; NaN without switches. */
  public double overheadFraction() {
    long gaps = all().stream().mapToLong(Long::longValue).sum();
    return gaps + taskMs == 0 ? Double.NaN : (double) gaps / (gaps + taskMs);
  }

  /** Nearest-rank percentile of {@code values} (p in (0, 100]); NaN when empty. */
  public static double percentile(List<Long> values, double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int rank = (int) Math.ceil(p / 100 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
