package io.hare.core.queues;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The queues' GPU guarantees and maxima around a policy's {@code assign}, shared by the
 * ResourceManager and the simulator. An offer of the free GPUs goes in two steps:
 * <ol>
 *   <li>Guarantees first: if a queue holds fewer GPU tasks than its guaranteed GPUs
 *       ({@link QueueShare#guaranteedGpus}) and has tasks waiting, the policy is offered the
 *       free GPUs with only such queues' jobs ready, and each of those queues takes at most what
 *       it lacks, in the order the policy answers (its own order within the queue).
 *   <li>Then the GPUs left go to the policy's global order among the queues below their maximum
 *       ({@link QueueShare#maximumGpus}); a queue at its maximum is not offered any. Where a
 *       queue of the first step still lacks GPUs (the policy kept free GPUs from its jobs: held
 *       for its job whose sync is about to end, or declined for a faster type), the others may
 *       not take, of the free GPUs its waiting jobs can run on, the ones it lacks: those stay
 *       free for its next offer, so a guarantee is not lent out again the moment it comes back.
 *       A guarantee counts GPUs of any type, so a slower GPU the queue declined is kept too;
 *       what that costs the others is measured in docs/queues.md.
 * </ol>
 * A queue guaranteed GPU types ({@link QueueShare#perType}) instead lacks, per type, the
 * guaranteed GPUs of that type ({@link QueueShare#guaranteedGpus(GpuType, int)}) it does not hold
 * while it has tasks waiting that can run there (the GPUs running its tasks, by
 * {@link GpuView#lastJobId}, count), capped by what its maximum leaves. The first step offers it
 * each such type's free GPUs alone, before the fleet guarantees. The second step does not keep
 * for it the free GPUs it lacks: a queue lacks a type however many GPUs of its other types it
 * holds, so a queue whose jobs wait for its fast type would keep its slow type idle, which the
 * policy declines for them (docs/queues.md measures it: up to 9.9 x one queue's total weighted
 * JCT). Without such queues nothing of this runs, so fleet guarantees decide exactly as they do
 * alone.
 *
 * <p>So an idle guarantee is lent to whoever the policy ranks first, and comes back at task
 * boundaries: a task is never killed, but every GPU that frees goes first to a queue below its
 * guarantee. {@link Decision#yielding} names the queues above their guarantee while another
 * queue waits for its own: a host that lets a GPU go on with its job's next task without an
 * offer (the RM's warm containers) sends those queues' GPUs back to the offer instead.
 *
 * <p>"Not offered" is the policy seeing the job with fewer ready tasks ({@link QueuedJob#hide})
 * for that one call, and a job of a queue the call does not serve as left out altogether, so
 * that the policy holds no GPU for it; since a policy may then drop the job from its index of
 * ready jobs, each job hidden with tasks still waiting is shown again
 * ({@link SchedulingPolicy#onTasksShown}) as soon as the call returns, before anything else asks
 * the policy. Counts are GPU tasks (one GPU each), with the whole fleet (every GPU of the view)
 * as one pool for a fleet guarantee.
 *
 * <p>Immutable and stateless between calls; {@link #assign} runs where the host calls its
 * policy, under the host's policy lock.
 */
public final class QueueGuarantees {

  /**
   * What one offer gave.
   *
   * @param assignments the policy's answers that the queues allow, in the order given
   * @param yielding queues above their guarantee while another queue waits for its own
   */
  public record Decision(List<Assignment> assignments, Set<String> yielding) {}

  private final QueueShares queues;

  public QueueGuarantees(QueueShares queues) {
    this.queues = queues;
  }

  public QueueShares queues() {
    return queues;
  }

  /**
   * The policy's answer for {@code free}, in the two steps of the class comment; with no job
   * ready it offers nothing and only works out who yields. A job whose queue is not configured
   * counts as {@code default}.
   */
  public Decision assign(SchedulingPolicy policy, ClusterView view,
      Collection<? extends QueuedJob> jobs, List<? extends GpuView> free, long nowMs) {
    policy.onQueuesGated(nowMs);
    Map<String, QueueShare> qs = queues.queues();
    int fleet = fleet(view);
    Map<String, int[]> use = new HashMap<>(); // queue -> {running, ready}
    int ready = 0;
    for (QueuedJob j : jobs) {
      int[] u = use.computeIfAbsent(queues.queueOf(j.queue()), q -> new int[2]);
      u[0] += j.runningTasks();
      u[1] += j.readyTasks();
      ready += j.readyTasks();
    }
    Map<String, Integer> lacking = new HashMap<>();
    for (Map.Entry<String, int[]> e : use.entrySet()) {
      QueueShare s = qs.get(e.getKey());
      int lack = Math.min(s.guaranteedGpus(fleet), s.maximumGpus(fleet)) - e.getValue()[0];
      if (lack > 0 && e.getValue()[1] > 0) {
        lacking.put(e.getKey(), lack);
      }
    }
    TypeUse typeUse = queues.perType() ? new TypeUse(queues, view, jobs) : null;
    Map<String, Map<GpuType, Integer>> typeLacking =
        typeUse == null ? Map.of() : typeUse.lacking(view, fleet, use);
    List<Assignment> out = new ArrayList<>();
    List<GpuView> left = new ArrayList<>(free);
    Map<String, Integer> taken = new HashMap<>(); // job -> tasks given so far in this pass
    if (ready == 0) {
      left.clear(); // nothing to offer: only who yields is worked out
    }
    for (GpuType t : typeLacking.isEmpty() ? List.<GpuType>of() : view.gpuTypes()) {
      if (!left.isEmpty()) {
        fillType(policy, view, jobs, nowMs, t, typeLacking, use, taken, left, out);
      }
    }
    Map<String, Integer> stillLacking = new HashMap<>(lacking);
    if (!lacking.isEmpty() && !left.isEmpty()) {
      fill(policy, view, jobs, nowMs, stillLacking, use, taken, left, Kept.NONE, true, out);
    }
    if (!left.isEmpty()) {
      Map<String, Integer> room = new HashMap<>();
      use.forEach((q, u) -> room.put(q, qs.get(q).maximumGpus(fleet) - u[0]));
      fill(policy, view, jobs, nowMs, room, use, taken, left,
          kept(view, jobs, stillLacking, taken, left), true, out);
    }
    Map<String, Integer> given = new HashMap<>();
    for (QueuedJob j : jobs) {
      given.merge(queues.queueOf(j.queue()), taken.getOrDefault(j.id(), 0), Integer::sum);
    }
    if (typeUse != null) {
      typeUse.add(out, free);
    }
    boolean waits = false;
    for (Map.Entry<String, int[]> e : use.entrySet()) {
      boolean more = e.getValue()[1] > given.getOrDefault(e.getKey(), 0);
      QueueShare s = qs.get(e.getKey());
      waits |= more && (s.perType() ? typeUse.below(e.getKey(), view)
          : e.getValue()[0] < s.guaranteedGpus(fleet));
    }
    Set<String> y = new HashSet<>();
    if (waits) {
      use.forEach((q, u) -> {
        QueueShare s = qs.get(q);
        if (s.perType() ? typeUse.above(q, view) : u[0] > s.guaranteedGpus(fleet)) {
          y.add(q);
        }
      });
    }
    return new Decision(out, Collections.unmodifiableSet(y));
  }

  /**
   * The first step for the queues lacking GPUs of {@code type}: only the free GPUs of that type
   * are offered, so that a policy placing such a queue's job on another type cannot use up the
   * offer, and each queue takes at most what it lacks there.
   */
  private void fillType(SchedulingPolicy policy, ClusterView view,
      Collection<? extends QueuedJob> jobs, long nowMs, GpuType type,
      Map<String, Map<GpuType, Integer>> typeLacking, Map<String, int[]> use,
      Map<String, Integer> taken, List<GpuView> left, List<Assignment> out) {
    Map<String, Integer> room = new HashMap<>();
    typeLacking.forEach((q, byType) -> {
      if (byType.getOrDefault(type, 0) > 0) {
        room.put(q, byType.get(type));
      }
    });
    List<GpuView> ofType = new ArrayList<>();
    for (GpuView g : left) {
      if (g.type().equals(type)) {
        ofType.add(g);
      }
    }
    if (room.isEmpty() || ofType.isEmpty()) {
      return;
    }
    int before = ofType.size();
    // the other queues' jobs stay in, shown without ready tasks: hare may then hold a GPU of the
    // type for a better-ranked job whose sync just ended, which the second step gives it in the
    // same pass (nothing is kept for a per-type queue there, so it does not idle). Left out,
    // they lost those GPUs to the lacking queue's jobs: 1.24-1.27 x one queue's total weighted
    // JCT in two splits by type of docs/queues.md (seed 1) against 1.09-1.10 x
    fill(policy, view, jobs, nowMs, room, use, taken, ofType, Kept.NONE, false, out);
    if (ofType.size() < before) {
      Set<GpuView> still = new HashSet<>(ofType);
      left.removeIf(g -> g.type().equals(type) && !still.contains(g));
    }
  }

  /**
   * Offers {@code left} to the jobs of the queues with {@code room} until the GPUs or the room
   * run out or an offer places nothing: a queue the policy over-serves in one offer (its answer
   * past the queue's room is dropped) leaves those GPUs to the next offer, without that queue.
   */
  private void fill(SchedulingPolicy policy, ClusterView view,
      Collection<? extends QueuedJob> jobs, long nowMs, Map<String, Integer> room,
      Map<String, int[]> use, Map<String, Integer> taken, List<GpuView> left, Kept kept,
      boolean leaveOut, List<Assignment> out) {
    while (!left.isEmpty()) {
      int before = out.size();
      take(offer(policy, view, jobs, left, nowMs,
          j -> room.getOrDefault(queues.queueOf(j.queue()), 0) > 0, taken, leaveOut), view,
          room, use, taken, left, kept, out);
      if (out.size() == before || room.values().stream().noneMatch(r -> r > 0)) {
        return;
      }
    }
  }

  /**
   * The policy's answer with only {@code eligible} jobs ready, each less what it was given. With
   * {@code leaveOut}, the others, and eligible jobs given all their ready tasks, are left out of
   * the call altogether ({@link io.hare.core.policy.JobView#leftOut}): a policy keeps no GPU for
   * them, such as a hold across the sync of a job whose queue this offer does not serve. An
   * eligible job between rounds stays in: a hold for its next round keeps its own queue's GPU.
   */
  private static List<Assignment> offer(SchedulingPolicy policy, ClusterView view,
      Collection<? extends QueuedJob> jobs, List<GpuView> gpus, long nowMs,
      Predicate<QueuedJob> eligible, Map<String, Integer> taken, boolean leaveOut) {
    List<QueuedJob> hidden = new ArrayList<>();
    List<QueuedJob> dropped = new ArrayList<>();
    for (QueuedJob j : jobs) {
      boolean in = eligible.test(j);
      int n = in ? taken.getOrDefault(j.id(), 0) : j.readyTasks();
      boolean out = leaveOut && (!in || n > 0 && n >= j.readyTasks());
      if (n > 0 || out) {
        if (n > 0 && n >= j.readyTasks()) {
          dropped.add(j);
        }
        j.hide(n, out);
        hidden.add(j);
      }
    }
    try {
      return policy.assign(view, Collections.unmodifiableList(gpus), nowMs);
    } finally {
      hidden.forEach(j -> j.hide(0, false));
      for (QueuedJob j : dropped) {
        if (j.readyTasks() > taken.getOrDefault(j.id(), 0)) {
          policy.onTasksShown(j, nowMs); // re-indexed by a policy that dropped it meanwhile
        }
      }
    }
  }

  /** Keeps the answers each queue has room for, in the policy's order. */
  private void take(List<Assignment> answer, ClusterView view, Map<String, Integer> room,
      Map<String, int[]> use, Map<String, Integer> taken, List<GpuView> left, Kept kept,
      List<Assignment> out) {
    for (Assignment a : answer) {
      if (!(view.job(a.jobId()) instanceof QueuedJob j)) {
        out.add(a); // not the gate's to judge: the host's contract check refuses it
        continue;
      }
      String q = queues.queueOf(j.queue());
      GpuView gpu = null;
      for (GpuView g : left) {
        if (g.id().equals(a.gpuId())) {
          gpu = g;
          break;
        }
      }
      if (room.getOrDefault(q, 0) <= 0 || gpu == null || !kept.allows(q, gpu)) {
        continue; // over the queue's share, kept for a queue still below its guarantee (or a
                  // GPU not offered: the host's check would refuse it)
      }
      left.remove(gpu);
      room.merge(q, -1, Integer::sum);
      use.get(q)[0]++;
      taken.merge(j.id(), 1, Integer::sum);
      out.add(a);
    }
  }

  /**
   * The free GPUs that queues still below their guarantee after the first step keep from the
   * others in the second: per such queue, as many as it lacks of those its waiting jobs can run
   * on. A GPU none of them can use is never kept; such queues themselves take in the global
   * order like the others.
   */
  private static final class Kept {

    static final Kept NONE = new Kept();

    /** Lacking queue -> GPUs it still keeps; the types its waiting jobs can run on. */
    private final Map<String, Integer> keeps = new HashMap<>();
    private final Map<String, Set<GpuType>> usable = new HashMap<>();
    /** Per lacking queue, the free GPUs it could use that are still left. */
    private final Map<String, Integer> usableLeft = new HashMap<>();

    /** Whether {@code queue} may take {@code gpu}; if so, counts it as taken. */
    boolean allows(String queue, GpuView gpu) {
      if (!keeps.containsKey(queue)) {
        for (Map.Entry<String, Integer> e : keeps.entrySet()) {
          if (usable.get(e.getKey()).contains(gpu.type())
              && usableLeft.get(e.getKey()) <= e.getValue()) {
            return false; // that queue would be left fewer GPUs it can use than it lacks
          }
        }
      } else {
        keeps.merge(queue, -1, Integer::sum);
      }
      for (String q : keeps.keySet()) {
        if (usable.get(q).contains(gpu.type())) {
          usableLeft.merge(q, -1, Integer::sum);
        }
      }
      return true;
    }
  }

  private Kept kept(ClusterView view, Collection<? extends QueuedJob> jobs,
      Map<String, Integer> stillLacking,
      Map<String, Integer> taken, List<GpuView> left) {
    Kept k = new Kept();
    for (QueuedJob j : jobs) {
      String q = queues.queueOf(j.queue());
      if (stillLacking.getOrDefault(q, 0) <= 0
          || j.readyTasks() <= taken.getOrDefault(j.id(), 0)) {
        continue;
      }
      k.keeps.put(q, stillLacking.get(q));
      Set<GpuType> types = k.usable.computeIfAbsent(q, x -> new HashSet<>());
      for (GpuType t : view.gpuTypes()) {
        if (j.times(t) != null) {
          types.add(t);
        }
      }
    }
    for (String q : k.keeps.keySet()) {
      int n = 0;
      for (GpuView g : left) {
        if (k.usable.get(q).contains(g.type())) {
          n++;
        }
      }
      k.usableLeft.put(q, n);
    }
    return k;
  }

  private static int fleet(ClusterView view) {
    int n = 0;
    for (GpuType t : view.gpuTypes()) {
      n += view.gpuCount(t);
    }
    return n;
  }
}
