package io.hare.yarn.scheduler.standby;

import io.hare.core.GpuType;
import io.hare.yarn.scheduler.YarnGpu;
import io.hare.yarn.scheduler.YarnJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * Who the busy GPUs whose tasks end soon go to next, cluster-wide, for the standbys
 * ({@link WarmStandbys#prelaunch}): those GPUs by expected end, soonest first, each go to the
 * first job in the policy's line for its type ({@link StandbyHost#line}) that has a ready task
 * not yet counted. Counted over the whole cluster and all types, as the policy will hand them
 * out: a job with 2 ready tasks takes 2 GPUs, not 2 on every node or of every type, so the jobs
 * after it get their standbys on the rest in time.
 *
 * <p>A GPU taken by its own running job (the job runs its next task there, warm) may also be
 * <em>hedged</em> to the next job in line with a ready task not yet counted, without counting
 * it: which of its GPUs a job continues on is the order its tasks end in, which the estimates
 * cannot tell apart (a round's tasks start in one pass and end within milliseconds of each
 * other). So a job that frees F of its GPUs may free them on any node: the next job gets a
 * standby on each node for up to F of them, not only where the estimates say, and its first
 * task on whichever frees is no container launch. It never gets more standbys than it can use
 * ({@link WarmStandbys#prelaunch}, {@link YarnJob#standbysUseful}).
 *
 * <p>Worked out again when the policy's line changes, else at most every {@link #REFRESH_MS}
 * (a sort of the busy GPUs: cheap next to a lead of seconds, not for every heartbeat of a large
 * cluster). Not thread-safe: the scheduler's lock.
 */
final class EndingGpus {

  static final long REFRESH_MS = 100;

  /** A busy GPU whose task is expected to end soon: the job running there, and that end. */
  record Busy(YarnJob running, long endMs) {}

  private Map<YarnGpu, YarnJob> takers = Map.of();
  private Map<YarnGpu, YarnJob> hedges = Map.of();
  private long atMs = Long.MIN_VALUE;
  private Object lineSeen;

  /**
   * The job that should wait on {@code gpu}'s node for it, by the last {@link #refresh}: the job
   * that takes it when it frees, or, where that is the job running there, the job hedged to it;
   * null if none.
   */
  YarnJob standbyFor(YarnGpu gpu) {
    YarnJob hedge = hedges.get(gpu);
    return hedge != null ? hedge : takers.get(gpu);
  }

  /**
   * @param ending busy GPUs whose task is expected to end within the standbys' lead time;
   *     computed by the caller only when this returns true from {@link #due}
   */
  void refresh(StandbyHost host, Map<YarnGpu, Busy> ending, long nowMs) {
    atMs = nowMs;
    lineSeen = host.lineVersion();
    List<YarnGpu> gpus = new ArrayList<>(ending.keySet());
    // ties (tasks placed in one pass) in cluster order, so the same state gives the same standbys
    gpus.sort(Comparator.comparingLong((YarnGpu g) -> ending.get(g).endMs())
        .thenComparingLong(YarnGpu::position));
    Map<GpuType, List<YarnJob>> lines = new HashMap<>();
    Map<YarnJob, Integer> taken = new HashMap<>();
    Map<YarnGpu, YarnJob> out = new HashMap<>();
    Map<YarnGpu, YarnJob> hedged = new HashMap<>();
    for (YarnGpu g : gpus) {
      List<YarnJob> line = lines.computeIfAbsent(g.type(), host::line);
      YarnJob taker = null;
      for (YarnJob j : line) {
        if (taker == null) {
          int n = taken.getOrDefault(j, 0);
          if (n < j.ready()) {
            taken.put(j, n + 1);
            out.put(g, j);
            taker = j;
            if (j != ending.get(g).running()) {
              break;
            }
          }
        } else if (taken.getOrDefault(j, 0) < j.ready()) {
          hedged.put(g, j);
          break;
        }
      }
    }
    takers = out;
    hedges = needed(gpus, ending, out, hedged);
  }

  /** A running job's GPUs on one node. */
  private record On(YarnJob job, NodeId node) {}

  /**
   * Of the hedge candidates (GPUs counted to their own running job X, each with the next job in
   * line), those a node needs: X frees F of its GPUs ending soon (those counted to other jobs),
   * any F of them, so a node where the count frees fewer than F of X's GPUs may see up to F free:
   * that many standbys there at most, the ones the count gives it plus hedges. A node where X
   * frees all it can (or nothing) needs no hedge: a standby waits for any GPU of its node.
   */
  private static Map<YarnGpu, YarnJob> needed(List<YarnGpu> gpus, Map<YarnGpu, Busy> ending,
      Map<YarnGpu, YarnJob> takers, Map<YarnGpu, YarnJob> candidates) {
    if (candidates.isEmpty()) {
      return Map.of();
    }
    Map<YarnJob, Integer> frees = new HashMap<>();
    Map<On, Integer> freesOn = new HashMap<>();
    for (YarnGpu g : gpus) {
      YarnJob x = ending.get(g).running();
      if (takers.get(g) != x) {
        frees.merge(x, 1, Integer::sum);
        freesOn.merge(new On(x, g.nodeId()), 1, Integer::sum);
      }
    }
    Map<YarnGpu, YarnJob> out = new HashMap<>();
    for (YarnGpu g : gpus) {
      YarnJob next = candidates.get(g);
      if (next == null) {
        continue;
      }
      YarnJob x = ending.get(g).running();
      On on = new On(x, g.nodeId());
      if (freesOn.getOrDefault(on, 0) < frees.getOrDefault(x, 0)) {
        out.put(g, next);
        freesOn.merge(on, 1, Integer::sum);
      }
    }
    return out;
  }

  /** Whether {@link #refresh} should run now: the line changed, or the last one is old. */
  boolean due(StandbyHost host, long nowMs) {
    return host.lineVersion() != lineSeen || nowMs - atMs >= REFRESH_MS;
  }
}
