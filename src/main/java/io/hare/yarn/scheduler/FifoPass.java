package io.hare.yarn.scheduler;

/**
 * Marks the scheduler thread while FifoScheduler's {@code nodeUpdate} runs. Hare calls it only
 * for YARN's processing of the node's launched and completed containers, which is private to
 * {@code AbstractYarnScheduler} and reached only through it; FifoScheduler's own placement that
 * follows (memory-only, it would over-commit GPUs) must place nothing and should cost nothing:
 *
 * <ul>
 *   <li>every Hare attempt is blacklisted on every node for it ({@link HareAppAttempt}), so it
 *       places nothing even if it runs;
 *   <li>a {@link HareNode} shows no unallocated resource to it (only an over-commitment), so it
 *       returns before its pass over every application, which with thousands of applications
 *       was most of a heartbeat.
 * </ul>
 *
 * <p>Only the thread running the pass sees the flag.
 */
final class FifoPass {

  private static final ThreadLocal<Boolean> ACTIVE = ThreadLocal.withInitial(() -> false);

  private FifoPass() {}

  static boolean active() {
    return ACTIVE.get();
  }

  /** Runs FifoScheduler's {@code nodeUpdate} with the flag set. */
  static void run(Runnable fifoNodeUpdate) {
    ACTIVE.set(true);
    try {
      fifoNodeUpdate.run();
    } finally {
      ACTIVE.set(false);
    }
  }
}
