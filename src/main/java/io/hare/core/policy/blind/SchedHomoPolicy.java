package io.hare.core.policy.blind;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.JobView;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sched_Homo, the Hare paper's baseline after Zhang, Zhou, Wu, Jiao, Li, "Online scheduling of
 * heterogeneous distributed machine learning jobs" (MobiHoc '20): weighted-JCT scheduling with
 * inter- and intra-job parallelism, blind to GPU types, without job-level preemption.
 * Clairvoyant (it reads rounds).
 *
 * <p><b>Source.</b> Only the paper's abstract is public (its body could not be found). It says
 * the algorithm has "(i) an online scheduling framework that groups unprocessed ML training jobs
 * into a batch iteratively, and (ii) a batch scheduling algorithm that configures each ML job to
 * maximize the total weight of scheduled jobs in the current iteration", with a parameterised
 * competitive ratio. That is the interval framework of Hall, Schulz, Shmoys and Wein (1997) for
 * online weighted completion time, which we follow; the rest is our closest defensible reading:
 *
 * <ul>
 *   <li><b>Iterations.</b> Boundaries at {@code t0 + L0 (2^l - 1)}: intervals double in length,
 *       t0 is the first arrival, L0 the shortest remaining span of the jobs present then. At a
 *       boundary, the pending jobs (arrived, not admitted) are considered by Smith's ratio
 *       (weight / work), the greedy for the maximum-weight batch; a job is admitted if it can
 *       finish within the interval (its remaining rounds, each spread over all the GPUs it may
 *       use, fit) and its work fits the GPU time the interval leaves after the work of jobs
 *       admitted earlier. Admitted jobs keep their admission order for good.
 *   <li><b>Type blindness.</b> Every time above is the job's compute (sync) time averaged over
 *       all GPUs of the cluster it can run on, as if all GPUs were of one average speed; which
 *       free GPU a task gets is a seeded random draw among those it can run on. It never
 *       compares per-type times.
 *   <li><b>Execution, task-level.</b> Free GPUs go to ready tasks of admitted jobs in admission
 *       order (batch by batch, Smith's order inside a batch), so a started job is never pushed
 *       back behind one that has not started (no job-level preemption). GPUs that no admitted
 *       job can use now go to pending jobs in Smith's order (work-conserving backfill: the
 *       framework's idle waiting for the next boundary is an artefact of its analysis, and a
 *       baseline that idles GPUs beside ready work would be a weakened one); a pending job that
 *       starts this way is admitted at the tail.
 * </ul>
 *
 * <p>Cost: arrivals and boundaries O(log jobs) per job (boundaries are logarithmic in time); an
 * offer walks admitted ready jobs, then pending ones, until the free GPUs are used.
 */
public final class SchedHomoPolicy implements SchedulingPolicy {

  public static final String NAME = "sched-homo";

  /** Offers between two readiness safety-net passes, as hlas's. */
  private static final int RESYNC_EVERY = 64;

  private static final Logger LOG = LoggerFactory.getLogger(SchedHomoPolicy.class);

  private final Random random;
  private final Map<String, HomoJob> jobs = new HashMap<>();
  private final List<HomoJob> arrived = new ArrayList<>(); // not yet averaged over the cluster
  private final TreeSet<HomoJob> pending = new TreeSet<>(HomoJob.SMITH);
  private final TreeSet<HomoJob> admittedReady = new TreeSet<>(HomoJob.ADMITTED);
  private long ranks;
  private long admissions;
  private long firstArrival = -1;
  private double firstInterval;
  private int intervals; // boundaries passed
  private long nextBoundary = Long.MAX_VALUE;
  private long offers;

  public SchedHomoPolicy(PolicyConfig config) {
    this.random = new Random(config.seed());
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
  public void onJobArrived(JobView job, long nowMs) {
    HomoJob j = new HomoJob(job, ranks++);
    jobs.put(j.id, j);
    arrived.add(j);
  }

  @Override
  public void onTaskStarted(JobView job, GpuView gpu, long nowMs) {
    HomoJob j = jobs.get(job.id());
    if (j != null && j.indexed && job.readyTasks() <= 0) {
      admittedReady.remove(j);
      j.indexed = false;
    }
  }

  @Override
  public void onTaskFailed(JobView job, GpuView gpu, long nowMs) {
    readyAgain(job);
  }

  @Override
  public void onTasksReady(JobView job, long nowMs) {
    readyAgain(job);
  }

  @Override
  public void onRoundDone(JobView job, long nowMs) {
    readyAgain(job);
  }

  @Override
  public void onJobDone(JobView job, long nowMs) {
    HomoJob j = jobs.remove(job.id());
    if (j != null) {
      pending.remove(j);
      arrived.remove(j);
      if (j.indexed) {
        admittedReady.remove(j);
      }
    }
  }

  @Override
  public boolean replanDue(long nowMs) {
    return !arrived.isEmpty() || nowMs >= nextBoundary;
  }

  @Override
  public void replan(ClusterView cluster, long nowMs) {
    for (HomoJob j : arrived) {
      j.view = cluster.job(j.id) == null ? j.view : cluster.job(j.id);
      j.averageOver(cluster);
      if (!j.sized()) {
        LOG.warn("sched-homo: job {} declares no number of rounds; it is ordered last and only "
            + "runs on GPUs no sized job can use", j.id);
      }
      if (j.usableGpus > 0) {
        pending.add(j);
      }
    }
    arrived.clear();
    if (firstArrival < 0 && !pending.isEmpty()) {
      firstArrival = nowMs;
      double shortest = pending.stream().mapToDouble(HomoJob::remainingSpanMs).min().orElse(1.0);
      firstInterval = Double.isFinite(shortest) ? Math.max(1.0, shortest) : 1.0;
      nextBoundary = nowMs;
    }
    if (nowMs >= nextBoundary) {
      while (boundary(intervals + 1) <= nowMs) {
        intervals++; // boundaries passed with no event: only the latest one forms a batch
      }
      admitBatch(cluster, firstInterval * Math.pow(2, intervals));
      intervals++;
      nextBoundary = boundary(intervals);
    }
  }

  private long boundary(int l) {
    double b = firstArrival + firstInterval * (Math.pow(2, l) - 1);
    return b >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE / 2 : (long) Math.ceil(b);
  }

  /** One iteration: the Smith-greedy maximum-weight batch that fits an interval of length L. */
  private void admitBatch(ClusterView cluster, double lengthMs) {
    double room = cluster.gpus().size() * lengthMs;
    for (HomoJob j : jobs.values()) {
      JobView v = cluster.job(j.id);
      j.view = v == null ? j.view : v;
      if (j.admitSeq >= 0 && j.sized()) {
        room -= j.remainingWorkMs();
      }
    }
    List<HomoJob> batch = new ArrayList<>();
    for (HomoJob j : pending) {
      double work = j.remainingWorkMs();
      if (j.remainingSpanMs() <= lengthMs && work <= room) {
        room -= work;
        batch.add(j);
      }
    }
    batch.forEach(this::admit);
  }

  private void admit(HomoJob j) {
    pending.remove(j);
    j.admitSeq = admissions++;
    if (j.view.readyTasks() > 0) {
      admittedReady.add(j);
      j.indexed = true;
    }
  }

  private void readyAgain(JobView job) {
    HomoJob j = jobs.get(job.id());
    if (j != null && j.admitSeq >= 0 && !j.indexed && job.readyTasks() > 0) {
      j.view = job;
      admittedReady.add(j);
      j.indexed = true;
    }
  }

  @Override
  public OptionalLong wakeUpAtMs() {
    return pending.isEmpty() || nextBoundary == Long.MAX_VALUE ? OptionalLong.empty()
        : OptionalLong.of(nextBoundary);
  }

  @Override
  public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
      long nowMs) {
    if (replanDue(nowMs)) {
      replan(cluster, nowMs); // a host that plans off the allocation path may not have yet
    }
    if (++offers % RESYNC_EVERY == 0) {
      cluster.jobs().forEach(this::readyAgain); // safety net for a host late to report readiness
    }
    RandomGpus gpus = new RandomGpus(freeGpus, random);
    List<Assignment> out = new ArrayList<>();
    List<HomoJob> started = new ArrayList<>();
    for (TreeSet<HomoJob> queue : List.of(admittedReady, pending)) {
      for (HomoJob j : queue) {
        if (gpus.exhausted()) {
          break;
        }
        JobView v = cluster.job(j.id);
        int n = v == null ? 0 : gpus.take(v, v.readyTasks(), out);
        if (n > 0 && j.admitSeq < 0) {
          started.add(j);
        }
      }
    }
    started.forEach(this::admit); // backfilled: joins the admitted order at the tail
    return out;
  }
}
