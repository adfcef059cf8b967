package io.hare.sim.report;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.plan.RelaxationBound;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.queues.GuaranteeFit;
import io.hare.core.queues.QueueShares;
import io.hare.sim.SimKeys;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs several policies on one workload, one simulation per policy, in parallel threads (each
 * simulation has its own {@link Simulator} and policy object, so they share nothing mutable), and
 * computes the lower bound alongside them. Results keep the order of the policies given.
 *
 * <p>A policy that breaks the simulator's rules, or any other failure inside a simulation, is
 * rethrown as is (unchecked) after the pool is shut down; a failure of the lower bound is only
 * logged, and the bound is reported as unavailable (NaN), because the comparison between the
 * policies is still worth having.
 */
public final class ComparisonRunner {

  private static final Logger LOG = LoggerFactory.getLogger(ComparisonRunner.class);

  private ComparisonRunner() {}

  /**
   * @param policies fresh policy objects, one per run, each used by one thread only
   * @param threads most simulations at a time, &gt;= 1
   */
  public static Comparison run(Workload workload, ClusterSpec cluster,
      List<SchedulingPolicy> policies, SimOptions options, int threads) {
    return run(workload, cluster, policies, options, threads, RelaxationBound.Options.defaults());
  }

  /** As {@link #run(Workload, ClusterSpec, List, SimOptions, int)}, with bound options. */
  public static Comparison run(Workload workload, ClusterSpec cluster,
      List<SchedulingPolicy> policies, SimOptions options, int threads,
      RelaxationBound.Options boundOptions) {
    return run(workload, cluster, policies, List.of(), options, threads, boundOptions);
  }

  /**
   * As {@link #run(Workload, ClusterSpec, List, SimOptions, int, RelaxationBound.Options)}, and,
   * when {@code singleQueue} is not empty, each policy once more with one queue (the workload's
   * queues ignored): each result then carries that run's total weighted JCT
   * ({@link SimResult#singleQueueTotalWeightedJctS}).
   *
   * @param singleQueue fresh policy objects for the single-queue runs, one per policy in the
   *     same order, or empty for none
   */
  public static Comparison run(Workload workload, ClusterSpec cluster,
      List<SchedulingPolicy> policies, List<SchedulingPolicy> singleQueue, SimOptions options,
      int threads, RelaxationBound.Options boundOptions) {
    if (!singleQueue.isEmpty() && singleQueue.size() != policies.size()) {
      throw new IllegalArgumentException("one single-queue policy per policy: got "
          + singleQueue.size() + " for " + policies.size());
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "hare-sim-" + n.incrementAndGet());
      t.setDaemon(true); // a failed run must not keep the JVM alive behind the error message
      return t;
    });
    List<GpuType> unusable = new Simulator(cluster, workload.jobs(), workload.profiles(),
        options).unusableTypes();
    if (!unusable.isEmpty()) {
      LOG.warn("no job of the workload can run on GPU type(s) {} of cluster {} (their models "
          + "have no times there): those GPUs only idle and are left out of GPU utilisation",
          unusable, cluster);
    }
    Map<GpuType, Integer> counts = new TreeMap<>();
    cluster.types().forEach(t -> counts.put(t, cluster.count(t)));
    GuaranteeFit.overcommit(options.queues(), counts).ifPresent(w -> LOG.warn("{}", w));
    try {
      // the bound takes the profiles as the true times, which they are not under profile error
      Future<Double> bound = options.profileError().any()
          ? CompletableFuture.completedFuture(Double.NaN)
          : pool.submit(() -> lowerBound(workload, cluster, boundOptions));
      List<Future<SimResult>> runs = new ArrayList<>();
      for (SchedulingPolicy p : policies) {
        runs.add(pool.submit(simulation(workload, cluster, p, options)));
      }
      List<Future<SimResult>> single = new ArrayList<>();
      for (SchedulingPolicy p : singleQueue) {
        single.add(pool.submit(simulation(workload, cluster, p,
            options.withQueues(QueueShares.single()))));
      }
      List<SimResult> results = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        SimResult r = get(runs.get(i));
        results.add(single.isEmpty() ? r
            : r.withSingleQueue(get(single.get(i))));
      }
      double critical = options.profileError().any() ? Double.NaN
          : RelaxationBound.criticalPathSumS(cluster, workload.jobs(), workload.profiles());
      return new Comparison(workload.name(), cluster.toString(), workload.jobs().size(),
          options.switchMs(), get(bound), results, critical);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Callable<SimResult> simulation(Workload w, ClusterSpec cluster,
      SchedulingPolicy policy, SimOptions options) {
    return () -> {
      long t0 = System.nanoTime();
      LOG.info("simulating {} on {} jobs, cluster {}", policy.name(), w.jobs().size(), cluster);
      SimResult r = new Simulator(cluster, w.jobs(), w.profiles(), options).run(policy);
      LOG.info("{} done in {} s: total weighted JCT {} s, {} unfinished", policy.name(),
          String.format("%.1f", (System.nanoTime() - t0) / 1e9),
          String.format("%.1f", r.totalWeightedJctS()), r.unfinishedJobs());
      return r;
    };
  }

  private static double lowerBound(Workload w, ClusterSpec cluster,
      RelaxationBound.Options o) {
    try {
      long t0 = System.nanoTime();
      double b = RelaxationBound.totalWeightedJctS(cluster, w.jobs(), w.profiles(), o);
      LOG.info("lower bound {} s in {} s{}", String.format("%.1f", b),
          String.format("%.1f", (System.nanoTime() - t0) / 1e9),
          w.jobs().size() > o.maxLpJobs() ? " (critical path only: more jobs than "
              + SimKeys.BOUND_MAX_LP_JOBS + ")" : "");
      return b;
    } catch (RuntimeException e) {
      LOG.warn("lower bound unavailable: {}", e.toString());
      return Double.NaN;
    }
  }

  private static <T> T get(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a simulation", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }
}
