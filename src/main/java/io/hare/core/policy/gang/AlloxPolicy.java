package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sched_AlloX, the Hare paper's strongest baseline: job-level, heterogeneity-aware min-cost
 * matching of jobs to GPUs, no intra-job parallelism.
 *
 * <p>Source: AlloX (Le et al., EuroSys '20) as Gavel reimplements it ({@code
 * stanford-futuredata/gavel, scheduler/policies/allox.py}, {@code AlloXPolicy(alpha=0.3)}). At
 * each decision Gavel takes the jobs without an allocation, oldest first, keeps the first
 * {@code m = min(U, max(n, floor(alpha U)))} of them (U waiting jobs, n free workers), builds
 * the cost of job i at position p of free worker j as p x (steps remaining / throughput on j's
 * type) plus the job's time since arrival, solves the assignment with the Hungarian method and
 * starts on each free worker the job at its highest position. Allocated jobs keep their workers
 * until they finish: non-preemptive. The waiting-time term is the same for every column of a row
 * and every row is assigned once, so it never changes the answer; we leave it out. The matching
 * itself is {@link AlloxMatching}. Weights are ignored, as in AlloX.
 *
 * <p>Adaptations to our model (Gavel's version asserts single-GPU jobs): a job of width k needs k
 * GPUs of one type, so a "machine" for it is a group of k free GPUs of a type (floor(free / k)
 * machines); its processing time there is remaining rounds x its round (compute plus sync) on
 * that type. Jobs of different widths see the same free GPUs as different machine classes, so
 * the matching may propose more starts on a type than it can hold; proposals are granted oldest
 * first and the matching is solved again on what is left until every proposal fits. A job wider
 * than every single type may run on a span of types ({@link GangPlacement}) as a class of its
 * own. Only jobs that fit somewhere now are candidates, and n counts free GPUs. Gavel re-plans
 * every scheduling round; we re-plan when a job arrives or finishes (or loses its GPUs), the only
 * events that change the free GPUs or the jobs of a non-preemptive gang scheduler.
 */
public final class AlloxPolicy extends ArrivalOrderGang {

  public static final String NAME = "allox";

  /** Matchings in one call at most; each grants at least one job. */
  private static final int MAX_MATCHINGS_PER_CALL = 64;

  private record MachineClass(GpuType type, int width, String spanJob) {}

  private final double alpha;

  public AlloxPolicy(PolicyConfig config) {
    double a = config.getDouble(GangKeys.ALLOX_ALPHA, GangKeys.DEFAULT_ALLOX_ALPHA, 0,
        1.0);
    if (a == 0) { // a range check with Double.MIN_VALUE as its bound would print 4.9E-324
      config.addProblem(GangKeys.ALLOX_ALPHA + ": must be a number in (0, 1], got '"
          + config.values().get(GangKeys.ALLOX_ALPHA) + "'");
      a = GangKeys.DEFAULT_ALLOX_ALPHA;
    }
    this.alpha = a;
    AlloxMatching.loadNatives();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean clairvoyant() {
    return true;
  }

  @Override
  boolean start(ClusterView cluster) {
    for (int i = 0; i < MAX_MATCHINGS_PER_CALL; i++) {
      int[] grantedRefused = matchOnce(cluster);
      if (grantedRefused[1] == 0) {
        return true; // every proposed start fitted
      }
      if (grantedRefused[0] == 0) {
        return false; // GPUs not offered now: try again at the next call
      }
    }
    return false; // the cap: try again at the next call
  }

  /** One matching and its grants; returns {granted, refused}. */
  private int[] matchOnce(ClusterView cluster) {
    int free = 0;
    for (GpuType t : cluster.gpuTypes()) {
      free += leases.unleased(t);
    }
    int u = waiting.size();
    if (free == 0 || u == 0) {
      return new int[] {0, 0};
    }
    int m = Math.min(u, Math.max(free, (int) (alpha * u)));
    Map<MachineClass, Integer> classIndex = new HashMap<>();
    List<MachineClass> classes = new ArrayList<>();
    List<Integer> machines = new ArrayList<>();
    List<Map<GpuType, Integer>> takes = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    List<List<AlloxMatching.Option>> options = new ArrayList<>();
    for (GangQueue<Key>.Scan it = waiting.scan(); it.hasNext() && ids.size() < m; ) {
      JobView job = cluster.job(it.next());
      if (job == null) {
        continue;
      }
      int k = job.tasksPerRound();
      long rounds = GangPlacement.remainingRounds(job);
      List<AlloxMatching.Option> os = new ArrayList<>();
      List<Map<GpuType, Integer>> where = new ArrayList<>();
      if (!GangPlacement.wide(job, cluster)) {
        for (GpuType t : cluster.gpuTypes()) {
          if (job.times(t) != null && leases.unleased(t) >= k) {
            where.add(Map.of(t, k));
          }
        }
      } else {
        Map<GpuType, Integer> span = GangPlacement.fastest(job, cluster, leases::unleased);
        if (span != null) {
          where.add(span);
        }
      }
      for (Map<GpuType, Integer> w : where) {
        GpuType t = w.keySet().iterator().next();
        MachineClass mc = w.size() == 1 && !GangPlacement.wide(job, cluster)
            ? new MachineClass(t, k, null) : new MachineClass(null, k, job.id());
        Integer c = classIndex.get(mc);
        if (c == null) {
          c = classes.size();
          classIndex.put(mc, c);
          classes.add(mc);
          machines.add(mc.spanJob() == null ? leases.unleased(t) / k : 1);
          takes.add(w);
        }
        long ms = (long) Math.ceil(rounds * GangPlacement.roundMs(job, w));
        os.add(new AlloxMatching.Option(c, Math.max(1, ms)));
      }
      if (os.isEmpty()) {
        it.dropBucketOfLast(); // same width and model: no room for them now either
      } else {
        ids.add(job.id());
        options.add(os);
      }
    }
    if (ids.isEmpty()) {
      return new int[] {0, 0};
    }
    int[] run = AlloxMatching.firstRunners(options,
        machines.stream().mapToInt(Integer::intValue).toArray());
    int granted = 0;
    int refused = 0;
    for (int i = 0; i < ids.size(); i++) {
      if (run[i] < 0) {
        continue;
      }
      if (leases.grant(ids.get(i), takes.get(run[i]))) {
        waiting.remove(ids.get(i));
        granted++;
      } else {
        refused++;
      }
    }
    return new int[] {granted, refused};
  }
}
