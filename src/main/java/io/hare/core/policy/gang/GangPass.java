package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * One decision pass of a gang policy that preempts at round boundaries (srtf, tiresias-las),
 * after the scheduling loop of Tiresias' simulator ({@code run_sim.py}: sort the runnable jobs,
 * give each in turn its GPUs if they fit, skip it otherwise, preempt running jobs that got
 * none).
 *
 * <p>Candidates are the jobs without a lease and the leased jobs at a round boundary (their
 * round ready, no task started); leased jobs in the middle of a round keep their GPUs and are
 * not candidates, so a lease is never revoked mid-task. Candidates are visited in priority order.
 * A boundary job keeps its lease when the policy agrees and no higher-priority job took its GPUs.
 * A job without a lease is placed on the unleased GPUs; only when they are too few does the pass
 * revoke the leases of lower-priority boundary jobs, lowest priority first, and those jobs then
 * compete for what is left when their turn comes. Boundary jobs left without GPUs are preempted.
 *
 * <p>Cost: O(candidates visited x types); waiting jobs are visited through a {@link GangQueue}
 * scan that skips the rest of a bucket (same width and model) once one of its jobs did not fit.
 */
final class GangPass {

  private GangPass() {}

  /** GPUs a job asks for: a count per type, or any k of the given types drawn at random. */
  record Placement(Map<GpuType, Integer> perType, List<GpuType> anyOf, int k) {

    static Placement of(Map<GpuType, Integer> perType) {
      return perType == null ? null : new Placement(perType, null, 0);
    }

    static Placement anyOf(List<GpuType> types, int k) {
      return new Placement(null, List.copyOf(types), k);
    }
  }

  /** The policy's part of a pass. */
  interface Rules {

    /**
     * Whether a boundary job that still holds all its GPUs keeps them.
     *
     * @param available GPUs per type it could have now, its own included
     */
    boolean keep(JobView job, ToIntFunction<GpuType> available);

    /**
     * Where a job without a lease goes, or null if it does not fit.
     *
     * @param available GPUs per type it could have: unleased ones plus those of lower-priority
     *     boundary jobs
     */
    Placement place(JobView job, ToIntFunction<GpuType> available);
  }

  /**
   * What changed.
   *
   * @param granted jobs that got a new lease (waiting jobs, or boundary jobs placed anew)
   * @param preempted boundary jobs that lost their lease and got none back
   */
  record Outcome(List<String> granted, List<String> preempted) {}

  /**
   * Runs a pass.
   *
   * @param boundary leased jobs at a round boundary, in priority order
   * @param waiting jobs without a lease, in priority order
   * @param priority the order of all candidates, by job id
   */
  static Outcome run(ClusterView cluster, GangLeases leases, List<String> boundary,
      GangQueue<?>.Scan waiting, Comparator<String> priority, Rules rules, Random random) {
    Map<GpuType, Integer> reserved = new HashMap<>(); // held by boundary jobs not yet visited
    for (String b : boundary) {
      leases.heldPerType(b).forEach((t, n) -> reserved.merge(t, n, Integer::sum));
    }
    ToIntFunction<GpuType> available = t -> leases.unleased(t) + reserved.getOrDefault(t, 0);
    Set<String> revoked = new HashSet<>();
    List<String> granted = new ArrayList<>();
    List<String> preempted = new ArrayList<>();
    int bi = 0;
    String nextWaiting = null; // taken from the scan, not yet visited
    while (true) {
      if (nextWaiting == null && waiting.hasNext()) {
        nextWaiting = waiting.next();
      }
      if (bi == boundary.size() && nextWaiting == null) {
        break;
      }
      boolean atBoundary = bi < boundary.size()
          && (nextWaiting == null || priority.compare(boundary.get(bi), nextWaiting) <= 0);
      String id = atBoundary ? boundary.get(bi++) : nextWaiting;
      if (!atBoundary) {
        nextWaiting = null;
      }
      JobView job = cluster.job(id);
      if (job == null) {
        continue;
      }
      if (atBoundary && !revoked.contains(id)) {
        Map<GpuType, Integer> held = leases.heldPerType(id);
        held.forEach((t, n) -> reserved.merge(t, -n, Integer::sum));
        if (rules.keep(job, t -> available.applyAsInt(t) + held.getOrDefault(t, 0))) {
          leases.markDue(id);
          continue;
        }
        leases.release(id); // the policy moves it: place it anew below
      }
      Placement p = rules.place(job, available);
      if (p == null && !atBoundary) {
        waiting.dropBucketOfLast(); // same width and model: none of them fits either
      }
      if (p != null && take(leases, p, boundary, bi, reserved, revoked)
          && (p.perType() != null ? leases.grant(id, p.perType())
              : leases.grantRandom(id, p.anyOf(), p.k(), random))) {
        granted.add(id);
      } else if (atBoundary) {
        preempted.add(id);
      }
    }
    return new Outcome(granted, preempted);
  }

  /**
   * Makes the unleased GPUs enough for the placement by revoking leases of boundary jobs not yet
   * visited (index {@code from} on), lowest priority first.
   */
  private static boolean take(GangLeases leases, Placement p, List<String> boundary, int from,
      Map<GpuType, Integer> reserved, Set<String> revoked) {
    for (int i = boundary.size() - 1; i >= from && shortOf(leases, p) > 0; i--) {
      String b = boundary.get(i);
      if (revoked.contains(b)) {
        continue;
      }
      Map<GpuType, Integer> held = leases.heldPerType(b);
      boolean helps = p.perType() != null
          ? p.perType().keySet().stream().anyMatch(t -> held.containsKey(t)
              && leases.unleased(t) < p.perType().get(t))
          : p.anyOf().stream().anyMatch(held::containsKey);
      if (helps) {
        held.forEach((t, n) -> reserved.merge(t, -n, Integer::sum));
        leases.release(b);
        revoked.add(b);
      }
    }
    return shortOf(leases, p) == 0;
  }

  private static int shortOf(GangLeases leases, Placement p) {
    if (p.perType() != null) {
      int s = 0;
      for (Map.Entry<GpuType, Integer> e : p.perType().entrySet()) {
        s += Math.max(0, e.getValue() - leases.unleased(e.getKey()));
      }
      return s;
    }
    int have = 0;
    for (GpuType t : p.anyOf()) {
      have += leases.unleased(t);
    }
    return Math.max(0, p.k() - have);
  }
}
