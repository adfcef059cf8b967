package io.hare.yarn.scheduler;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one lock around a {@link io.hare.core.policy.SchedulingPolicy}, so the policy is called by
 * one thread at a time (its contract) although re-plans run on a background thread
 * ({@link Replanner}).
 *
 * <p><b>Locking rule.</b> The background re-plan holds the lock for the whole solve. The
 * scheduler thread (heartbeats and events, under the scheduler's monitor) never waits for it:
 * while a re-plan is in flight it does not even try the lock; callbacks are queued in order and
 * delivered, after {@code publish} brought the policy's view up to date, the next time the
 * scheduler thread holds the lock. So a heartbeat costs at most a few queue operations while a
 * solve runs, and the policy sees its callbacks in YARN's order.
 *
 * <p>Only the scheduler thread calls {@link #call}, {@link #enter} and {@link #pending}; the
 * queue needs no lock of its own.
 */
final class PolicyGate {

  private final ReentrantLock lock = new ReentrantLock();
  private final Queue<Runnable> queued = new ArrayDeque<>();
  private final Runnable publish;
  private volatile boolean replanInFlight;

  /** @param publish copies the live state to what the policy reads; run under the lock */
  PolicyGate(Runnable publish) {
    this.publish = publish;
  }

  /** Runs {@code callback} on the policy now if the lock is free, else at the next entry. */
  void call(Runnable callback) {
    queued.add(callback);
    if (enter()) {
      exit();
    }
  }

  /**
   * Takes the lock without waiting unless a re-plan is in flight, publishes and delivers the
   * queued callbacks. On true the caller may call the policy and must {@link #exit}.
   */
  boolean enter() {
    if (replanInFlight || !lock.tryLock()) {
      return false;
    }
    try {
      publish.run();
      for (Runnable r; (r = queued.poll()) != null; ) {
        r.run();
      }
      return true;
    } catch (RuntimeException e) {
      lock.unlock();
      throw e;
    }
  }

  void exit() {
    lock.unlock();
  }

  /** Callbacks waiting for the lock. */
  boolean pending() {
    return !queued.isEmpty();
  }

  /** A re-plan was handed to the executor and has not finished. */
  boolean replanInFlight() {
    return replanInFlight;
  }

  void replanStarted() {
    replanInFlight = true;
  }

  /** Background side: hold the lock for a re-plan (blocks only on a short scheduler section). */
  void lockForReplan() {
    lock.lock();
  }

  /** The executor refused the re-plan: nothing holds the lock for it. */
  void replanAbandoned() {
    replanInFlight = false;
  }

  /** Background side: the re-plan is over. */
  void replanFinished() {
    lock.unlock();
    replanInFlight = false;
  }
}
