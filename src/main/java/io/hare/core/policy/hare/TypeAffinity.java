package io.hare.core.policy.hare;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The GPU types each job is matched to, from the relaxation's type shares ({@link HarePolicy}),
 * with an end of validity; dispatch bans the job's other types, or with a finite
 * {@code affinity-penalty} makes them cost more ({@link RoundPlacer}). A job in the latest relaxation keeps its types until the next one. A re-plan
 * that leaves a job out (the LP holds only the first {@code lp-max-jobs} in Smith order) gives its
 * types an expiry: they describe a matching of jobs to types that no longer holds (the jobs ahead
 * of it changed, GPUs freed), so after a while the job may use every type it can run on again
 * instead of being kept off a free GPU by a stale ban or penalty. A job without types, or whose
 * types have expired, may use every type alike.
 *
 * <p>Not thread-safe: one per dispatcher, used under the policy's lock.
 */
final class TypeAffinity {

  private record Entry(Set<GpuType> types, long setMs, long expiresMs) {}

  private record Expiry(long atMs, String jobId) implements Comparable<Expiry> {
    @Override
    public int compareTo(Expiry o) {
      int c = Long.compare(atMs, o.atMs);
      return c != 0 ? c : jobId.compareTo(o.jobId);
    }
  }

  private final Map<String, Entry> byJob = new HashMap<>();
  /** Expiries set and not yet passed or replaced, soonest first (for wake-ups). */
  private final TreeSet<Expiry> expiries = new TreeSet<>();

  /**
   * The job's types from the relaxation solved at {@code nowMs}: valid until a re-plan leaves the
   * job out.
   */
  void put(String jobId, Set<GpuType> types, long nowMs) {
    remove(jobId);
    byJob.put(jobId, new Entry(Set.copyOf(types), nowMs, Long.MAX_VALUE));
  }

  /**
   * A re-plan left the job out of its relaxation: its types, if any, end {@code maxAgeMs} after
   * the relaxation that set them (or earlier, when an earlier re-plan already set an end).
   */
  void expireAfter(String jobId, long maxAgeMs) {
    Entry e = byJob.get(jobId);
    if (e == null) {
      return;
    }
    long at = e.setMs() > Long.MAX_VALUE - maxAgeMs ? Long.MAX_VALUE - 1 : e.setMs() + maxAgeMs;
    if (e.expiresMs() <= at) {
      return;
    }
    if (e.expiresMs() != Long.MAX_VALUE) {
      expiries.remove(new Expiry(e.expiresMs(), jobId));
    }
    byJob.put(jobId, new Entry(e.types(), e.setMs(), at));
    expiries.add(new Expiry(at, jobId));
  }

  /** Whether the job has types that have not expired at {@code nowMs}. */
  boolean has(String jobId, long nowMs) {
    return allowed(jobId, nowMs) != null;
  }

  /** The types the job may use at {@code nowMs}; null when it may use every type. */
  Set<GpuType> allowed(String jobId, long nowMs) {
    Entry e = byJob.get(jobId);
    return e == null || nowMs >= e.expiresMs() ? null : e.types();
  }

  void remove(String jobId) {
    Entry e = byJob.remove(jobId);
    if (e != null && e.expiresMs() != Long.MAX_VALUE) {
      expiries.remove(new Expiry(e.expiresMs(), jobId));
    }
  }

  void clear() {
    byJob.clear();
    expiries.clear();
  }

  /** Ids of the jobs with types, a copy (expired types included until {@link #purge}). */
  List<String> jobs() {
    return new ArrayList<>(byJob.keySet());
  }

  /** Drops the types that have expired by {@code nowMs}. */
  void purge(long nowMs) {
    while (!expiries.isEmpty() && expiries.first().atMs() <= nowMs) {
      byJob.remove(expiries.pollFirst().jobId());
    }
  }

  /**
   * The first expiry not yet purged: a job whose types expire then may take a free GPU they kept
   * it from, so the host should offer the free GPUs again; empty when none is set.
   */
  OptionalLong nextExpiryMs() {
    return expiries.isEmpty() ? OptionalLong.empty() : OptionalLong.of(expiries.first().atMs());
  }
}
