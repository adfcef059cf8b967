package io.hare.sim;

import io.hare.core.GpuType;
import io.hare.core.queues.QueueShare;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's account of the queues' guarantees when some queue is guaranteed GPU types
 * ({@link QueueShare#perType}): per queue and type, the GPU tasks it runs there and its tasks
 * waiting that can run there (a waiting task counts on each type its job has times for). From
 * those, {@link #add} adds to each queue what {@link QueueOutcome} reports:
 *
 * <ul>
 *   <li>a queue guaranteed GPU types waits while, on some type, it holds fewer GPUs than its
 *       guarantee there and has tasks waiting that can run there; it is short, per such type, of
 *       the GPUs it lacks there (at most its tasks waiting for that type), in all at most its
 *       tasks waiting; lent are those GPUs of each type that other queues hold above their own
 *       guarantees of it (a queue guaranteed a share of the fleet: of its GPUs of the type, as
 *       many as it holds above its guarantee, since any of them could go back);
 *   <li>a queue guaranteed a share of the fleet is accounted as without per-type queues, a
 *       per-type queue's GPUs above its guarantees counting among those held above guarantees.
 * </ul>
 *
 * <p>Not thread-safe: the run's own.
 */
final class TypeAccounts {

  private final List<QueueShare> queues;
  private final Map<GpuType, Integer> typeIndex = new HashMap<>();
  private final int[] fleetGuaranteed;
  /** [queue][type]. */
  private final int[][] guaranteed;
  private final int[][] running;
  private final int[][] waiting;

  /**
   * @param queues the run's queues, in its order
   * @param types the cluster's GPU types
   * @param counts the cluster's GPUs per type
   */
  TypeAccounts(List<QueueShare> queues, List<GpuType> types, Map<GpuType, Integer> counts) {
    this.queues = queues;
    int fleet = 0;
    for (GpuType t : types) {
      typeIndex.put(t, typeIndex.size());
      fleet += counts.get(t);
    }
    int nq = queues.size();
    fleetGuaranteed = new int[nq];
    guaranteed = new int[nq][types.size()];
    running = new int[nq][types.size()];
    waiting = new int[nq][types.size()];
    for (int q = 0; q < nq; q++) {
      fleetGuaranteed[q] = queues.get(q).guaranteedGpus(fleet);
      for (GpuType t : types) {
        guaranteed[q][typeIndex.get(t)] = queues.get(q).guaranteedGpus(t, counts.get(t));
      }
    }
  }

  /** {@code n} more (or, negative, fewer) tasks of {@code job} wait. */
  void waiting(SimJob job, int n) {
    for (Map.Entry<GpuType, Integer> e : typeIndex.entrySet()) {
      if (job.times(e.getKey()) != null) {
        waiting[job.queueIndex][e.getValue()] += n;
      }
    }
  }

  /** {@code n} more (or fewer) tasks of {@code job} run on a GPU of {@code type}. */
  void running(SimJob job, GpuType type, int n) {
    running[job.queueIndex][typeIndex.get(type)] += n;
  }

  /**
   * Adds {@code dt} ms of the present state to each queue's wait, short and lent GPU-ms
   * ({@code waitingTasks}, {@code runningTasks}: each queue's, all types together).
   */
  void add(long dt, int[] waitingTasks, int[] runningTasks, long[] waitMs, long[] shortGpuMs,
      long[] lentGpuMs) {
    int nq = queues.size();
    int nt = typeIndex.size();
    int[] aboveOfType = new int[nt]; // GPUs of each type held above a queue's guarantee
    int above = 0;
    for (int q = 0; q < nq; q++) {
      if (queues.get(q).perType()) {
        for (int t = 0; t < nt; t++) {
          int over = Math.max(0, running[q][t] - guaranteed[q][t]);
          aboveOfType[t] += over;
          above += over;
        }
      } else {
        int over = Math.max(0, runningTasks[q] - fleetGuaranteed[q]);
        above += over;
        for (int t = 0; t < nt; t++) {
          aboveOfType[t] += Math.min(over, running[q][t]); // any of them could go back
        }
      }
    }
    for (int q = 0; q < nq; q++) {
      int shortGpus = 0;
      int lent = 0;
      if (queues.get(q).perType()) {
        for (int t = 0; t < nt; t++) {
          int lack = guaranteed[q][t] - running[q][t];
          if (waiting[q][t] > 0 && lack > 0) {
            int s = Math.min(lack, waiting[q][t]);
            shortGpus += s;
            lent += Math.min(s, aboveOfType[t]);
          }
        }
        shortGpus = Math.min(shortGpus, waitingTasks[q]);
        lent = Math.min(lent, shortGpus);
      } else {
        int lack = fleetGuaranteed[q] - runningTasks[q];
        if (waitingTasks[q] > 0 && lack > 0) {
          shortGpus = Math.min(lack, waitingTasks[q]);
          lent = Math.min(shortGpus, above); // a queue short holds none above
        }
      }
      if (shortGpus > 0) {
        waitMs[q] += dt;
        shortGpuMs[q] += dt * shortGpus;
        lentGpuMs[q] += dt * lent;
      }
    }
  }
}
