package io.hare.core.policy.gang;

import io.hare.core.GpuType;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * SRTF, the Hare paper's "shortest remaining time first" baseline, as a gang scheduler: the job
 * with the least remaining time gets its k GPUs first.
 *
 * <p>Source: the Hare paper names SRTF without details (PAPER-NOTES section 4); we follow the
 * {@code shortest} schedule of Tiresias' simulator ({@code SymbioticLab/Tiresias,
 * simulator/run_sim.py, shortest_first_sim_jobs}): at each event sort all runnable jobs by
 * remaining time, give each in turn its GPUs if they fit and skip it otherwise (a later, longer
 * job may use GPUs the shorter one cannot), and preempt running jobs that got none. Weights are
 * ignored, as there.
 *
 * <p>Adaptations to our model: remaining time is clairvoyant, remaining rounds times the job's
 * round time; jobs that do not declare their rounds count as
 * {@link GangPlacement#UNKNOWN_ROUNDS} rounds long, so they cannot jump the queue by hiding their
 * size. Tasks are never preempted, so a job can lose its GPUs only at a round boundary
 * ({@link GangPass}); a running job in the middle of a round keeps them, and a shorter arrival
 * waits for the next boundary of a longer job. Decisions are taken only when something changed:
 * an arrival, a round boundary of a leased job, or a finished job.
 *
 * <p>Two registered settings. {@code srtf} is the classic scheduler as Tiresias' simulator has it,
 * blind to GPU types: the round time is the job's average over the cluster's GPUs
 * ({@link GangPlacement#averageRoundMs}) and a job takes any k free GPUs it can run on, as
 * Tiresias places jobs. {@code srtf-hetero} is a stronger variant we add for comparison, not in
 * any paper: the round time on the job's fastest type ({@link GangPlacement#bestRoundMs}), placement
 * on the fastest type with k GPUs available (jobs wider than every type span types), and a job at
 * its boundary moves to a strictly faster type when one has k GPUs free. {@code smith-hetero}
 * is {@code srtf-hetero} ordered by Smith's rule (remaining time over weight), ours too: a gang
 * policy that sees weights and types, to tell how much of a lead over the gang baselines comes
 * from weights rather than from running a job's tasks apart.
 */
public final class SrtfPolicy extends BoundaryGang<SrtfPolicy.Key> {

  public static final String NAME = "srtf";
  public static final String HETERO_NAME = "srtf-hetero";
  public static final String SMITH_NAME = "smith-hetero";

  record Key(double remainingMs, long arrivalMs, String id) {}

  private static final Comparator<Key> ORDER = Comparator.comparingDouble(Key::remainingMs)
      .thenComparingLong(Key::arrivalMs).thenComparing(Key::id);

  private final List<String> arrived = new ArrayList<>();
  private final Random random;
  private final boolean typeAware;
  private final boolean weighted;

  /** The classic, type-blind SRTF. */
  public SrtfPolicy(PolicyConfig config) {
    this(config, false, false);
  }

  /** Our heterogeneity-aware variant, {@code srtf-hetero}. */
  public static SrtfPolicy hetero(PolicyConfig config) {
    return new SrtfPolicy(config, true, false);
  }

  /** {@code srtf-hetero} by Smith's rule, {@code smith-hetero}. */
  public static SrtfPolicy smith(PolicyConfig config) {
    return new SrtfPolicy(config, true, true);
  }

  private SrtfPolicy(PolicyConfig config, boolean typeAware, boolean weighted) {
    super(ORDER);
    this.random = new Random(config.seed());
    this.typeAware = typeAware;
    this.weighted = weighted;
  }

  @Override
  public String name() {
    return weighted ? SMITH_NAME : typeAware ? HETERO_NAME : NAME;
  }

  @Override
  public boolean clairvoyant() {
    return true;
  }

  @Override
  public void onJobArrived(JobView job, long nowMs) {
    arrived.add(job.id()); // its key needs the cluster: computed in assign
    dirty = true;
  }

  @Override
  void forget(String jobId) {
    arrived.remove(jobId);
  }

  private Key key(JobView job, ClusterView cluster) {
    double round = typeAware ? GangPlacement.bestRoundMs(job, cluster)
        : GangPlacement.averageRoundMs(job, cluster);
    double remaining = GangPlacement.remainingRounds(job) * round;
    return new Key(weighted ? remaining / job.weight() : remaining, job.arrivalMs(), job.id());
  }

  private void enqueue(String id, ClusterView cluster) {
    JobView job = cluster.job(id);
    if (job != null) {
      waiting.add(id, key(job, cluster), job.tasksPerRound(), job.model());
    }
  }

  @Override
  void requeue(String jobId, ClusterView cluster, long nowMs) {
    enqueue(jobId, cluster);
  }

  @Override
  void beforeDecide(ClusterView cluster, long nowMs) {
    arrived.forEach(id -> enqueue(id, cluster));
    arrived.clear();
  }

  @Override
  void decide(ClusterView cluster, long nowMs) {
    Map<String, Key> keys = new HashMap<>();
    List<String> atBoundary = new ArrayList<>();
    for (String id : boundary) {
      JobView job = cluster.job(id);
      if (job != null && leases.holds(id)) {
        keys.put(id, key(job, cluster));
        atBoundary.add(id);
      }
    }
    boundary.clear();
    Comparator<String> priority = Comparator.comparing(
        id -> keys.containsKey(id) ? keys.get(id) : waiting.key(id), ORDER);
    atBoundary.sort(priority);
    GangPass.Outcome o = GangPass.run(cluster, leases, atBoundary, waiting.scan(), priority,
        typeAware ? new Rules(cluster) : new TypeBlindRules(cluster), random);
    o.granted().forEach(waiting::remove);
    o.preempted().forEach(id -> enqueue(id, cluster));
  }

  /** Fastest type with k GPUs available; a boundary job moves only to a strictly faster one. */
  private final class Rules implements GangPass.Rules {
    private final ClusterView cluster;

    Rules(ClusterView cluster) {
      this.cluster = cluster;
    }

    @Override
    public boolean keep(JobView job, ToIntFunction<GpuType> available) {
      Map<GpuType, Integer> best = GangPlacement.fastest(job, cluster, available);
      return best == null || GangPlacement.roundMs(job, best)
          >= GangPlacement.roundMs(job, leases.heldPerType(job.id()));
    }

    @Override
    public GangPass.Placement place(JobView job, ToIntFunction<GpuType> available) {
      return GangPass.Placement.of(GangPlacement.fastest(job, cluster, available));
    }
  }
}
