package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Gang leases: how the gang baselines (gavel-fifo, srtf, allox, tiresias-las) run in our
 * round/task model. A gang scheduler gives a job all k GPUs at once; here a job granted a lease
 * holds a set of GPUs (exactly k) until it finishes or its policy revokes the lease at a round
 * boundary (no task computing, the next round not started). Each time the job has ready tasks,
 * {@link #dispatch} puts one on each held free GPU, so the k tasks of a round start together on
 * the k held GPUs. Held GPUs idle while the job syncs and are never given to another job.
 *
 * <p>A lease is granted only on GPUs that are free and unleased at that instant. Placement
 * rules (fastest type, spans for jobs wider than any type) live in {@link GangPlacement}.
 *
 * <p>Cost: the GPU index is built once (and again only when the cluster's GPU count changes);
 * a grant or a release costs O(k), a dispatch O(k) per job whose round is due, and counting the
 * unleased GPUs of a type O(1). Nothing scans all GPUs or all jobs per call.
 *
 * <p>Offers: when the host offers every free GPU (the simulator does; detected in O(types) from
 * {@link ClusterView#freeGpuCount}), unleased GPUs are taken as free. When it offers fewer (a
 * host that offers one node per heartbeat), only offered GPUs are used and a grant that finds
 * too few of them fails, leaving the job waiting for a later offer.
 */
final class GangLeases {

  private final Map<String, GpuView> gpus = new HashMap<>();
  private final Map<GpuType, IdPool> unleased = new LinkedHashMap<>();
  private final Map<String, List<String>> leases = new HashMap<>(); // job -> held GPU ids
  private final Map<String, String> holder = new HashMap<>();
  /** Leased jobs that may have ready tasks to put on their GPUs, in the order they became due. */
  private final Set<String> due = new LinkedHashSet<>();
  private int indexed = -1;
  private Set<String> offered; // null: the offer holds every free GPU
  private boolean grantFailed;

  /**
   * Prepares one {@code assign} call: re-indexes the GPUs if the cluster changed and notes what
   * was offered.
   *
   * @return jobs whose leases lost every GPU (removed from the cluster); they hold nothing now
   */
  List<String> begin(ClusterView cluster, List<? extends GpuView> offer) {
    int total = 0;
    int free = 0;
    for (GpuType t : cluster.gpuTypes()) {
      total += cluster.gpuCount(t);
      free += cluster.freeGpuCount(t);
    }
    List<String> lost = total == indexed ? List.of() : reindex(cluster, total);
    grantFailed = false;
    if (offer.size() == free) {
      offered = null;
    } else {
      offered = new HashSet<>();
      offer.forEach(g -> offered.add(g.id()));
    }
    return lost;
  }

  private List<String> reindex(ClusterView cluster, int total) {
    Map<String, GpuView> now = new HashMap<>();
    for (GpuView g : cluster.gpus()) {
      now.put(g.id(), g);
    }
    List<String> lost = new ArrayList<>();
    for (Iterator<Map.Entry<String, GpuView>> it = gpus.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, GpuView> e = it.next();
      if (now.containsKey(e.getKey())) {
        continue;
      }
      it.remove();
      pool(e.getValue().type()).remove(e.getKey());
      String job = holder.remove(e.getKey());
      List<String> held = job == null ? null : leases.get(job);
      if (held != null) {
        held.remove(e.getKey());
        if (held.isEmpty()) {
          leases.remove(job);
          due.remove(job);
          lost.add(job);
        }
      }
    }
    for (GpuView g : cluster.gpus()) {
      if (gpus.put(g.id(), g) == null) {
        pool(g.type()).add(g.id());
      }
    }
    indexed = total;
    return lost;
  }

  private IdPool pool(GpuType t) {
    return unleased.computeIfAbsent(t, k -> new IdPool());
  }

  /** Unleased GPUs of a type: all free when the host offers every free GPU. */
  int unleased(GpuType t) {
    IdPool p = unleased.get(t);
    return p == null ? 0 : p.size();
  }

  boolean holds(String jobId) {
    return leases.containsKey(jobId);
  }

  /** GPUs of the lease per type, in cluster type order of first appearance. */
  Map<GpuType, Integer> heldPerType(String jobId) {
    Map<GpuType, Integer> m = new LinkedHashMap<>();
    List<String> held = leases.get(jobId);
    if (held != null) {
      held.forEach(id -> m.merge(gpus.get(id).type(), 1, Integer::sum));
    }
    return m;
  }

  private boolean usable(String id) {
    GpuView g = gpus.get(id);
    return g != null && !g.busy() && (offered == null || offered.contains(id));
  }

  /**
   * Grants {@code count} free unleased GPUs of each type given, or nothing if some type has too
   * few. The job becomes due: its ready tasks start on the next {@link #dispatch}.
   */
  boolean grant(String jobId, Map<GpuType, Integer> counts) {
    List<String> taken = new ArrayList<>();
    for (Map.Entry<GpuType, Integer> e : counts.entrySet()) {
      IdPool p = unleased.get(e.getKey());
      int need = e.getValue();
      for (int i = p == null ? -1 : p.size() - 1; i >= 0 && need > 0; i--) {
        String id = p.get(i);
        if (usable(id)) {
          taken.add(id);
          need--;
        }
      }
      if (need > 0) {
        grantFailed = true;
        return false;
      }
    }
    commit(jobId, taken);
    return true;
  }

  /**
   * Grants {@code k} GPUs drawn uniformly at random from the free unleased GPUs of the given
   * types (type-blind placement), or nothing if there are too few.
   */
  boolean grantRandom(String jobId, List<GpuType> types, int k, Random random) {
    List<IdPool> pools = new ArrayList<>();
    int n = 0;
    for (GpuType t : types) {
      IdPool p = unleased.get(t);
      if (p != null && p.size() > 0) {
        pools.add(p);
        n += p.size();
      }
    }
    // Sparse Fisher-Yates over the pools laid end to end: O(k) draws, no copy of the pools.
    Map<Integer, Integer> swapped = new HashMap<>();
    List<String> taken = new ArrayList<>();
    for (int drawn = 0; drawn < n && taken.size() < k; drawn++) {
      int pick = drawn + random.nextInt(n - drawn);
      int at = swapped.getOrDefault(pick, pick);
      swapped.put(pick, swapped.getOrDefault(drawn, drawn));
      String id = null;
      for (IdPool p : pools) {
        if (at < p.size()) {
          id = p.get(at);
          break;
        }
        at -= p.size();
      }
      if (usable(id)) {
        taken.add(id);
      }
    }
    if (taken.size() < k) {
      grantFailed = true;
      return false;
    }
    commit(jobId, taken);
    return true;
  }

  /**
   * A grant in this call found fewer usable GPUs than the counts promised (GPUs not offered, or
   * busy without a lease); the policy should decide again at the next call.
   */
  boolean retryNeeded() {
    return grantFailed;
  }

  private void commit(String jobId, List<String> taken) {
    if (leases.containsKey(jobId)) {
      throw new IllegalStateException("job " + jobId + " already holds a lease");
    }
    for (String id : taken) {
      pool(gpus.get(id).type()).remove(id);
      holder.put(id, jobId);
    }
    leases.put(jobId, taken);
    due.add(jobId);
  }

  /** Ends a lease; its GPUs become unleased. Only at a round boundary or when the job is done. */
  void release(String jobId) {
    List<String> held = leases.remove(jobId);
    if (held != null) {
      for (String id : held) {
        holder.remove(id);
        pool(gpus.get(id).type()).add(id);
      }
      due.remove(jobId);
    }
  }

  /** The leased job may have ready tasks (its round opened, or a task failed and is ready). */
  void markDue(String jobId) {
    if (leases.containsKey(jobId)) {
      due.add(jobId);
    }
  }

  /** Puts the ready tasks of every due leased job on its held GPUs that are free and offered. */
  List<Assignment> dispatch(ClusterView cluster) {
    List<Assignment> out = new ArrayList<>();
    for (Iterator<String> it = due.iterator(); it.hasNext(); ) {
      String id = it.next();
      JobView job = cluster.job(id);
      List<String> held = leases.get(id);
      if (job == null || held == null) {
        it.remove();
        continue;
      }
      int ready = job.readyTasks();
      for (int i = 0; i < held.size() && ready > 0; i++) {
        if (usable(held.get(i))) {
          out.add(new Assignment(held.get(i), id));
          ready--;
        }
      }
      if (ready == 0) {
        it.remove(); // still-ready tasks (a held GPU busy) keep the job due for the next call
      }
    }
    return out;
  }
}
