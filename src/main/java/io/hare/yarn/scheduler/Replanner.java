package io.hare.yarn.scheduler;

import io.hare.core.policy.ClusterView;
import io.hare.core.policy.Replan;
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
 * <p>At most one re-plan is in flight, in one of two ways:
 * <ul>
 *   <li><b>Split</b> ({@link SchedulingPolicy#startReplan}, {@link #solve}): the pass took the
 *       policy's snapshot under the gate; only the solve runs here, without the gate, so passes
 *       go on placing by the previous plan. The first pass after it installs the result
 *       ({@link #takeSolved}).
 *   <li><b>Whole</b> ({@link #start}), for a policy that does not split: the re-plan holds the
 *       {@link PolicyGate} lock for the whole solve and reads the policy's published view, which
 *       nobody changes while it holds the lock. The heartbeat path meanwhile places nothing
 *       through the policy (non-GPU containers are still placed) and picks up the finished plan
 *       at the next heartbeat ({@link #takePlanReady}).
 * </ul>
 */
final class Replanner {

  private static final Logger LOG = LoggerFactory.getLogger(Replanner.class);

  private final SchedulingPolicy policy;
  private final ClusterView view;
  private final PolicyGate gate;
  private final Executor executor;
  private final ReplanListener listener;
  private final AtomicLong replans = new AtomicLong();
  private volatile boolean planReady;
  /** A split re-plan's solve is running. */
  private volatile boolean solving;
  /** A split re-plan's result, not installed yet. */
  private volatile Replan.Solved solved;

  /** @param listener told each re-plan's duration (on the re-planning thread) */
  Replanner(SchedulingPolicy policy, ClusterView view, PolicyGate gate, Executor executor,
      ReplanListener listener) {
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

  /**
   * Starts the solve of a split re-plan whose snapshot the caller just took under the gate; none
   * is in flight. With a same-thread executor its result is ready ({@link #takeSolved}) on
   * return.
   */
  void solve(Replan replan) {
    solving = true;
    try {
      executor.execute(() -> runSolve(replan));
    } catch (RejectedExecutionException e) {
      solving = false; // the scheduler is stopping
      LOG.debug("re-plan not solved: {}", e.toString());
    }
  }

  private void runSolve(Replan replan) {
    try {
      long t0 = System.nanoTime();
      Replan.Solved s = replan.solve();
      long nanos = System.nanoTime() - t0;
      replans.incrementAndGet();
      listener.replanned(nanos);
      LOG.debug("{} solved a re-plan in {} us", policy.name(), nanos / 1000);
      solved = s;
    } catch (RuntimeException e) {
      LOG.error("{}: re-plan solve failed; the previous plan stays", policy.name(), e);
    } finally {
      planReady = true; // a pass is due: to install it, or to re-plan again
      solving = false; // after the result: whoever sees it false sees the result
    }
  }

  /** A split re-plan's snapshot, just taken in a pass, took {@code nanos}. */
  void snapshotTaken(long nanos) {
    listener.snapshotTaken(nanos);
  }

  /** Whether a split re-plan's solve is running. */
  boolean solving() {
    return solving;
  }

  /** The finished split re-plan not yet installed, now taken; null when none. */
  Replan.Solved takeSolved() {
    Replan.Solved s = solved;
    solved = null;
    return s;
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
