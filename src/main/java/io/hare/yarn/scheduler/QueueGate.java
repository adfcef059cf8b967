package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
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
 * The queues' GPU guarantees and maxima around the policy's offer ({@link PolicyHost#pass}). With
 * {@code default} alone it does nothing: the policy sees every job, as without queues. With
 * several queues an offer of the free GPUs goes in two steps:
 * <ol>
 *   <li>Guarantees first: if a queue holds fewer GPU tasks than its guaranteed GPUs
 *       ({@link QueueSettings#guaranteedGpus}) and has tasks waiting, the policy is offered the
 *       free GPUs with only such queues' jobs ready, and each of those queues takes at most what
 *       it lacks, in the order the policy answers (its own order within the queue).
 *   <li>Then the GPUs left go to the policy's global order among the queues below their maximum
 *       ({@link QueueSettings#maximumGpus}); a queue at its maximum is not offered any.
 * </ol>
 * So an idle guarantee is lent to whoever the policy ranks first, and comes back at task
 * boundaries: a task is never killed, but every GPU that frees goes first to a queue below its
 * guarantee. A warm container of a queue above its guarantee does not go on with its job's next
 * task while another queue waits for its guarantee ({@link #yields}).
 *
 * <p>"Not offered" is the policy seeing the job with no ready task ({@link YarnJob#hide}) for that
 * one call; since a policy may then drop the job from its index of ready jobs, each job hidden
 * with tasks waiting is announced again ({@code onTasksReady}) as soon as the call returns, before
 * anything else asks the policy. Counts are GPU tasks the scheduler started (one GPU each);
 * containers of several GPUs from other AMs are not counted against a queue.
 *
 * <p>Threading: {@link #assign} on the scheduler thread under the policy lock; {@link #yields}
 * from any thread.
 */
final class QueueGate {

  private volatile Map<String, QueueSettings> queues = Map.of();
  private volatile Set<String> yielding = Set.of();

  /** The queues of a (re)read configuration; {@code default} alone turns the gate off. */
  void configure(QueueConfig c) {
    queues = c.several() ? c.queues() : Map.of();
    if (!c.several()) {
      yielding = Set.of();
    }
  }

  boolean active() {
    return !queues.isEmpty();
  }

  /**
   * Whether a GPU of a job in {@code queue} must go back to the offer at its task's end rather
   * than run the job's next task: the queue holds more than its guarantee while another queue
   * waits for its own, as of the last pass.
   */
  boolean yields(String queue) {
    return yielding.contains(queue);
  }

  /**
   * The policy's answer for {@code free}, in the two steps of the class comment; called at every
   * pass, with no GPU free too, to work out who {@link #yields}.
   */
  List<Assignment> assign(SchedulingPolicy policy, ClusterView view, Collection<YarnJob> jobs,
      List<YarnGpu> free, long nowMs) {
    Map<String, QueueSettings> qs = queues;
    int fleet = fleet(view);
    Map<String, int[]> use = new HashMap<>(); // queue -> {running, ready}
    int ready = 0;
    for (YarnJob j : jobs) {
      int[] u = use.computeIfAbsent(queueOf(j, qs), q -> new int[2]);
      u[0] += j.runningTasks();
      u[1] += j.readyTasks();
      ready += j.readyTasks();
    }
    Map<String, Integer> lacking = new HashMap<>();
    for (Map.Entry<String, int[]> e : use.entrySet()) {
      QueueSettings s = qs.get(e.getKey());
      int lack = Math.min(s.guaranteedGpus(fleet), s.maximumGpus(fleet)) - e.getValue()[0];
      if (lack > 0 && e.getValue()[1] > 0) {
        lacking.put(e.getKey(), lack);
      }
    }
    List<Assignment> out = new ArrayList<>();
    List<YarnGpu> left = new ArrayList<>(free);
    Map<String, Integer> taken = new HashMap<>(); // job -> tasks given so far in this pass
    if (ready == 0) {
      left.clear(); // nothing to offer: only who yields is worked out
    }
    if (!lacking.isEmpty() && !left.isEmpty()) {
      fill(policy, view, jobs, nowMs, qs, new HashMap<>(lacking), use, taken, left, out);
    }
    if (!left.isEmpty()) {
      Map<String, Integer> room = new HashMap<>();
      use.forEach((q, u) -> room.put(q, qs.get(q).maximumGpus(fleet) - u[0]));
      fill(policy, view, jobs, nowMs, qs, room, use, taken, left, out);
    }
    Set<String> y = new HashSet<>();
    boolean waits = false;
    for (Map.Entry<String, int[]> e : use.entrySet()) {
      int given = 0;
      for (YarnJob j : jobs) {
        if (queueOf(j, qs).equals(e.getKey())) {
          given += taken.getOrDefault(j.id(), 0);
        }
      }
      waits |= e.getValue()[1] > given
          && e.getValue()[0] < qs.get(e.getKey()).guaranteedGpus(fleet);
    }
    if (waits) {
      use.forEach((q, u) -> {
        if (u[0] > qs.get(q).guaranteedGpus(fleet)) {
          y.add(q);
        }
      });
    }
    yielding = y;
    return out;
  }

  /**
   * Offers {@code left} to the jobs of the queues with {@code room} until the GPUs or the room
   * run out or an offer places nothing: a queue the policy over-serves in one offer (its answer
   * past the queue's room is dropped) leaves those GPUs to the next offer, without that queue.
   */
  private static void fill(SchedulingPolicy policy, ClusterView view, Collection<YarnJob> jobs,
      long nowMs, Map<String, QueueSettings> qs, Map<String, Integer> room,
      Map<String, int[]> use, Map<String, Integer> taken, List<YarnGpu> left,
      List<Assignment> out) {
    while (!left.isEmpty()) {
      int before = out.size();
      take(offer(policy, view, jobs, left, nowMs,
          j -> room.getOrDefault(queueOf(j, qs), 0) > 0, taken), view, qs, room, use, taken,
          left, out);
      if (out.size() == before || room.values().stream().noneMatch(r -> r > 0)) {
        return;
      }
    }
  }

  /** The policy's answer with only {@code eligible} jobs ready, each less what it was given. */
  private static List<Assignment> offer(SchedulingPolicy policy, ClusterView view,
      Collection<YarnJob> jobs, List<YarnGpu> gpus, long nowMs, Predicate<YarnJob> eligible,
      Map<String, Integer> taken) {
    List<YarnJob> hidden = new ArrayList<>();
    List<YarnJob> dropped = new ArrayList<>();
    for (YarnJob j : jobs) {
      int n = eligible.test(j) ? taken.getOrDefault(j.id(), 0) : j.readyTasks();
      if (n > 0) {
        if (n >= j.readyTasks()) {
          dropped.add(j);
        }
        j.hide(n);
        hidden.add(j);
      }
    }
    try {
      return policy.assign(view, Collections.unmodifiableList(gpus), nowMs);
    } finally {
      hidden.forEach(j -> j.hide(0));
      for (YarnJob j : dropped) {
        if (j.readyTasks() > taken.getOrDefault(j.id(), 0)) {
          policy.onTasksReady(j, nowMs); // re-indexed by a policy that dropped it meanwhile
        }
      }
    }
  }

  /** Keeps the answers each queue has room for, in the policy's order. */
  private static void take(List<Assignment> answer, ClusterView view,
      Map<String, QueueSettings> qs, Map<String, Integer> room, Map<String, int[]> use,
      Map<String, Integer> taken, List<YarnGpu> left, List<Assignment> out) {
    for (Assignment a : answer) {
      if (!(view.job(a.jobId()) instanceof YarnJob j)) {
        out.add(a); // not the gate's to judge: the host's contract check refuses it
        continue;
      }
      String q = queueOf(j, qs);
      if (room.getOrDefault(q, 0) <= 0 || !left.removeIf(g -> g.id().equals(a.gpuId()))) {
        continue; // over the queue's share (or a GPU not offered: the check would refuse it)
      }
      room.merge(q, -1, Integer::sum);
      use.get(q)[0]++;
      taken.merge(j.id(), 1, Integer::sum);
      out.add(a);
    }
  }

  private static int fleet(ClusterView view) {
    int n = 0;
    for (GpuType t : view.gpuTypes()) {
      n += view.gpuCount(t);
    }
    return n;
  }

  /** A job's queue; one a refresh dropped counts as {@code default}. */
  private static String queueOf(YarnJob j, Map<String, QueueSettings> qs) {
    String q = j.queue();
    return qs.containsKey(q) ? q : HareQueue.NAME;
  }
}
