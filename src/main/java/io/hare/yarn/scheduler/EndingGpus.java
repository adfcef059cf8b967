package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who the busy GPUs whose tasks end soon go to next, cluster-wide, for the standbys
 * ({@link GpuTasks#prelaunch}): those GPUs by expected end, soonest first, each go to the first
 * job in the policy's line for its type ({@link PolicyHost#line}) that has a ready task not yet
 * counted. Counted over the whole cluster and all types, as the policy will hand them out: a job
 * with 2 ready tasks takes 2 GPUs, not 2 on every node or of every type, so the jobs after it
 * get their standbys on the rest in time.
 *
 * <p>Worked out again when the policy's line changes, else at most every {@link #REFRESH_MS}
 * (a sort of the busy GPUs: cheap next to a lead of seconds, not for every heartbeat of a large
 * cluster). Not thread-safe: the scheduler's lock.
 */
final class EndingGpus {

  static final long REFRESH_MS = 100;

  private Map<YarnGpu, YarnJob> takers = Map.of();
  private long atMs = Long.MIN_VALUE;
  private Object lineSeen;

  /** The job that takes {@code gpu} when it frees, by the last {@link #refresh}; null if none. */
  YarnJob taker(YarnGpu gpu) {
    return takers.get(gpu);
  }

  /**
   * @param endsAt busy GPUs whose task is expected to end within the standbys' lead time, with
   *     that end; computed by the caller only when this returns true from {@link #due}
   */
  void refresh(PolicyHost host, Map<YarnGpu, Long> endsAt, long nowMs) {
    atMs = nowMs;
    lineSeen = host.lineVersion();
    List<YarnGpu> gpus = new ArrayList<>(endsAt.keySet());
    // ties (tasks placed in one pass) in cluster order, so the same state gives the same standbys
    gpus.sort(Comparator.comparingLong((YarnGpu g) -> endsAt.get(g))
        .thenComparingLong(YarnGpu::position));
    Map<GpuType, List<YarnJob>> lines = new HashMap<>();
    Map<YarnJob, Integer> taken = new HashMap<>();
    Map<YarnGpu, YarnJob> out = new HashMap<>();
    for (YarnGpu g : gpus) {
      for (YarnJob j : lines.computeIfAbsent(g.type(), t -> jobs(host, t))) {
        int n = taken.getOrDefault(j, 0);
        if (n < j.ready) {
          taken.put(j, n + 1);
          out.put(g, j);
          break;
        }
      }
    }
    takers = out;
  }

  private static List<YarnJob> jobs(PolicyHost host, GpuType type) {
    List<YarnJob> line = new ArrayList<>();
    for (String id : host.line(type)) {
      YarnJob j = host.activeJob(id);
      if (j != null) {
        line.add(j);
      }
    }
    return line;
  }

  /** Whether {@link #refresh} should run now: the line changed, or the last one is old. */
  boolean due(PolicyHost host, long nowMs) {
    return host.lineVersion() != lineSeen || nowMs - atMs >= REFRESH_MS;
  }
}
