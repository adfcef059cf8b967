package io.hare.core.policy.gang;

import io.hare.core.policy.ClusterView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Tiresias' discretized two-dimensional least-attained-service scheduler (Gu et al., NSDI '19),
 * as users of Tiresias know it: non-clairvoyant, gang, blind to GPU types.
 *
 * <p>Source: {@code SymbioticLab/Tiresias, simulator/run_sim.py, dlas_sim_jobs(gputime=True)}
 * and {@code simulator/jobs.py}. Attained service is GPUs x executed time (k x the time the job
 * has held its GPUs). Jobs sit in priority queues split by service thresholds (defaults: the
 * simulator's {@code queue_limit} of 3250 and 7200 GPU-seconds, three queues); a new job enters
 * the top queue and a job whose service passes its queue's threshold drops one queue down, to
 * the back. Queues are served top first; inside a queue, jobs holding GPUs come before waiting
 * ones (the simulator moves pending jobs behind running ones after every pass), then by when
 * they entered the queue. Each job in turn gets its k GPUs if they fit, otherwise it is skipped;
 * running jobs that got none are preempted. Starvation guard (PromoteKnob): a waiting job below
 * the top queue that has run before goes back to the top queue, its executed time reset to
 * zero, once its pending time since it last entered the top queue reaches PromoteKnob x its
 * executed time. The simulator's default {@code dlas-gpu} leaves the knob off and its variants
 * try 0.5 to 1000 ({@code dlas-gpu-05} ... {@code dlas-gpu-1000}); we default to 8 (our choice; 0
 * turns the guard off).
 *
 * <p>Adaptations to our model: tasks are never preempted, so demotion and preemption take
 * effect at the job's round boundaries ({@link GangPass}); service is counted from lease grant
 * to the boundary, so a job crossing a threshold mid-round is demoted at its next boundary (and
 * may cross several thresholds at once). Placement is type-blind: k GPUs drawn at random
 * (seeded) from the free GPUs of the types the job can run on, possibly mixing types; a job
 * keeps its GPUs across rounds while it wins. Promotions happen at their exact time through
 * {@link #wakeUpAtMs}. Weights are ignored, as in Tiresias. The bookkeeping is in
 * {@link TiresiasLedger}.
 */
public final class TiresiasLasPolicy extends BoundaryGang<TiresiasLedger.Key> {

  public static final String NAME = "tiresias-las";

  private final TiresiasLedger ledger;
  private final Random random;

  public TiresiasLasPolicy(PolicyConfig config) {
    super(TiresiasLedger.ORDER);
    double knob = config.getDouble(GangKeys.TIRESIAS_PROMOTE_KNOB,
        GangKeys.DEFAULT_TIRESIAS_PROMOTE_KNOB, 0, 1e9);
    this.ledger = new TiresiasLedger(TiresiasSettings.thresholdsGpuMs(config), knob);
    // java.util.Random's first draws barely differ between neighbouring seeds: mix the seed.
    this.random = new Random(new SplittableRandom(config.seed()).nextLong());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean clairvoyant() {
    return false;
  }

  @Override
  public void onJobArrived(JobView job, long nowMs) {
    ledger.arrive(job.id(), job.tasksPerRound());
    wait(job, nowMs);
  }

  @Override
  void forget(String jobId) {
    ledger.remove(jobId);
  }

  @Override
  public OptionalLong wakeUpAtMs() {
    return ledger.nextPromotionMs();
  }

  private void wait(JobView job, long nowMs) {
    if (job == null) {
      return; // gone from the cluster; onJobDone cleans up
    }
    waiting.add(job.id(), ledger.waits(job.id(), nowMs), job.tasksPerRound(), job.model());
    dirty = true;
  }

  @Override
  void requeue(String jobId, ClusterView cluster, long nowMs) {
    wait(cluster.job(jobId), nowMs);
  }

  @Override
  void beforeDecide(ClusterView cluster, long nowMs) {
    for (String id : ledger.promote(nowMs)) {
      wait(cluster.job(id), nowMs);
    }
  }

  @Override
  void decide(ClusterView cluster, long nowMs) {
    List<String> atBoundary = new ArrayList<>();
    for (String id : boundary) {
      if (leases.holds(id) && ledger.knows(id)) {
        ledger.boundary(id, nowMs);
        atBoundary.add(id);
      }
    }
    boundary.clear();
    Comparator<String> priority = ledger.priority(Set.copyOf(atBoundary));
    atBoundary.sort(priority);
    GangPass.Outcome o = GangPass.run(cluster, leases, atBoundary, waiting.scan(), priority,
        new TypeBlindRules(cluster), random);
    for (String id : o.granted()) {
      waiting.remove(id);
      ledger.runs(id, nowMs);
    }
    o.preempted().forEach(id -> wait(cluster.job(id), nowMs));
  }
}
