package io.hare.yarn.scheduler;

import io.hare.core.policy.ClusterView;
import io.hare.core.policy.SchedulingPolicy;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the policy's heavy {@link SchedulingPolicy#replan} off the heartbeat path, on an injected
 * {@link Executor}: in the RM one daemon thread per scheduler ({@link #newThread}); in tests a
 * same-thread executor, which makes a re-plan finish before the pass that started it assigns,
 * exactly as an inline re-plan would.
 *
 * <p>At most one re-plan is in flight. It holds the {@link PolicyGate} lock for the whole solve
 * and reads the policy's published view, which nobody changes while it holds the lock. The
 * heartbeat path meanwhile places nothing through the policy (non-GPU containers are still
 * placed) and picks up the finished plan at the next heartbeat ({@link #takePlanReady}).
 */
final class Replanner {

  private static final Logger LOG = LoggerFactory.getLogger(Replanner.class);

  /** Told the duration of every finished re-plan; called on the re-planning thread. */
  interface Listener {
    void replanned(long nanos);
  }

  private final SchedulingPolicy policy;
  private final ClusterView view;
  private final PolicyGate gate;
  private final Executor executor;
  private final Listener listener;
  private final AtomicLong replans = new AtomicLong();
  private volatile boolean planReady;

  Replanner(SchedulingPolicy policy, ClusterView view, PolicyGate gate, Executor executor,
      Listener listener) {
    this.policy = policy;
    this.view = view;
    this.gate = gate;
    this.executor = executor;
    this.listener = listener;
  }

  /** The RM's executor: one daemon thread named after the scheduler. */
  static ExecutorService newThread() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hare-replan");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts a re-plan at {@code nowMs}; the caller holds the gate and none is in flight. */
  void start(long nowMs) {
    gate.replanStarted();
    try {
      executor.execute(() -> run(nowMs));
    } catch (RejectedExecutionException e) {
      gate.replanAbandoned(); // the scheduler is stopping
      LOG.debug("re-plan not started: {}", e.toString());
    }
  }

  private void run(long nowMs) {
    gate.lockForReplan();
    try {
      long t0 = System.nanoTime();
      policy.replan(view, nowMs);
      long nanos = System.nanoTime() - t0;
      replans.incrementAndGet();
      listener.replanned(nanos);
      LOG.debug("{} re-planned in {} us", policy.name(), nanos / 1000);
    } catch (RuntimeException e) {
      LOG.error("{}: re-plan at {} ms failed; the previous plan stays", policy.name(), nowMs, e);
    } finally {
      planReady = true;
      gate.replanFinished();
    }
  }

  /** Whether a re-plan finished since the last call. */
  boolean takePlanReady() {
    boolean r = planReady;
    planReady = false;
    return r;
  }

  long replans() {
    return replans.get();
  }
}
