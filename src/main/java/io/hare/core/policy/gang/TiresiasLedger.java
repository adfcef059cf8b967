package io.hare.core.policy.gang;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Tiresias' per-job 2D-LAS bookkeeping, after the job dicts of its simulator ({@code
 * SymbioticLab/Tiresias, simulator/run_sim.py, dlas_sim_jobs}): the queue a job is in, when it
 * entered it, its executed time (reset on promotion), its pending time since it last entered the
 * top queue, and when it is due for promotion. Times are milliseconds; service is k x executed
 * time, compared with thresholds in GPU-milliseconds.
 */
final class TiresiasLedger {

  /** Order of waiting jobs: queue, then when they entered it. */
  record Key(int queue, long seq, String id) {}

  static final Comparator<Key> ORDER = Comparator.comparingInt(Key::queue)
      .thenComparingLong(Key::seq).thenComparing(Key::id);

  private record Promotion(long atMs, long seq, String id) {}

  private static final class Las {
    final int k;
    int queue;
    long seq;
    double executedMs;
    double lastPendingMs;
    long leaseStartMs = -1;
    long pendingSinceMs;
    Promotion promotion;

    Las(int k) {
      this.k = k;
    }
  }

  private final double[] thresholdsGpuMs;
  private final double knob;
  private final Map<String, Las> jobs = new HashMap<>();
  private final TreeSet<Promotion> promotions = new TreeSet<>(
      Comparator.comparingLong(Promotion::atMs).thenComparingLong(Promotion::seq));
  private long seq;

  TiresiasLedger(double[] thresholdsGpuMs, double knob) {
    this.thresholdsGpuMs = thresholdsGpuMs.clone();
    this.knob = knob;
  }

  /** A new job, in the top queue, behind the jobs already there; call {@link #waits} next. */
  void arrive(String id, int k) {
    Las s = new Las(k);
    s.seq = ++seq;
    jobs.put(id, s);
  }

  void remove(String id) {
    Las s = jobs.remove(id);
    if (s != null && s.promotion != null) {
      promotions.remove(s.promotion);
    }
  }

  /**
   * The job holds no GPUs from now on; schedules its promotion (queue below the top, has run,
   * knob on) at PromoteKnob x executed time of pending since it last entered the top queue.
   *
   * @return its key among the waiting jobs
   */
  Key waits(String id, long nowMs) {
    Las s = jobs.get(id);
    accrue(s, nowMs);
    s.leaseStartMs = -1;
    s.pendingSinceMs = nowMs;
    cancelPromotion(s);
    if (knob > 0 && s.queue > 0 && s.executedMs > 0) {
      long wait = (long) Math.ceil(Math.max(0, s.executedMs * knob - s.lastPendingMs));
      s.promotion = new Promotion(nowMs + wait, s.seq, id);
      promotions.add(s.promotion);
    }
    return key(id);
  }

  /** The job got GPUs: its pending time counts towards promotion only once it has run. */
  void runs(String id, long nowMs) {
    Las s = jobs.get(id);
    if (s.leaseStartMs < 0) {
      if (s.executedMs > 0) {
        s.lastPendingMs += nowMs - s.pendingSinceMs;
      }
      cancelPromotion(s);
    }
    s.leaseStartMs = nowMs;
  }

  /** At a round boundary: adds the time held and demotes past thresholds, to a queue's back. */
  void boundary(String id, long nowMs) {
    Las s = jobs.get(id);
    accrue(s, nowMs);
    while (s.queue < thresholdsGpuMs.length && s.executedMs * s.k >= thresholdsGpuMs[s.queue]) {
      s.queue++;
      s.seq = ++seq;
    }
  }

  /** Promotes the jobs due by now to the back of the top queue, executed time reset. */
  List<String> promote(long nowMs) {
    List<String> out = new ArrayList<>();
    while (!promotions.isEmpty() && promotions.first().atMs() <= nowMs) {
      Promotion p = promotions.pollFirst();
      Las s = jobs.get(p.id());
      s.promotion = null;
      s.queue = 0;
      s.executedMs = 0;
      s.lastPendingMs = 0;
      s.seq = ++seq;
      out.add(p.id());
    }
    return out;
  }

  OptionalLong nextPromotionMs() {
    return promotions.isEmpty() ? OptionalLong.empty() : OptionalLong.of(promotions.first().atMs());
  }

  Key key(String id) {
    Las s = jobs.get(id);
    return new Key(s.queue, s.seq, id);
  }

  boolean knows(String id) {
    return jobs.containsKey(id);
  }

  /** Queues top first; in a queue, jobs holding GPUs first, then by when they entered it. */
  Comparator<String> priority(Set<String> holding) {
    return Comparator.<String>comparingInt(id -> jobs.get(id).queue)
        .thenComparingInt(id -> holding.contains(id) ? 0 : 1)
        .thenComparingLong(id -> jobs.get(id).seq);
  }

  private static void accrue(Las s, long nowMs) {
    if (s.leaseStartMs >= 0) {
      s.executedMs += nowMs - s.leaseStartMs;
      s.leaseStartMs = nowMs;
    }
  }

  private void cancelPromotion(Las s) {
    if (s.promotion != null) {
      promotions.remove(s.promotion);
      s.promotion = null;
    }
  }
}
