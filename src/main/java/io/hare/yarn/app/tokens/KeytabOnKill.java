package io.hare.yarn.app.tokens;

import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The staged keytab of an AM that stops without unregistering: deleted only if the RM has this
 * attempt KILLED. The AM runs it when it leaves without unregistering (the RM's shutdown request,
 * which after a kill usually reaches the AM's next heartbeat first), and as a shutdown hook for
 * YARN's SIGTERM to its container.
 *
 * <p>A killed application (by {@code hare kill}, {@code yarn application -kill}, an admin or its
 * lifetime) has its attempt KILLED in the RM before the RM asks the AM to shut down and before
 * the NodeManager stops the AM's container, and no attempt follows, so nothing needs the keytab.
 * Any other stop (the node shutting down, the AM's container preempted or over its memory, an AM
 * that lost the RM) finds the attempt not KILLED, and YARN may start another attempt, which
 * localizes the keytab: it stays. An RM that cannot be asked leaves it too (a WARN naming the
 * file). As a hook it has the NodeManager's {@code yarn.nodemanager.sleep-delay-before-sigkill.ms}
 * (250 ms by default) for one call to the RM and one delete; a client following the job deletes
 * the keytab too once the job has ended.
 *
 * <p>It acts once: a second run, or a run after {@link #settle} (the AM unregistered and deleted
 * the keytab itself), does nothing.
 */
public final class KeytabOnKill implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(KeytabOnKill.class);
  /** Above Hadoop's file systems' own hook (10), so it runs while they are open. */
  public static final int PRIORITY = 30;

  private final Callable<Boolean> attemptKilled;
  private final Callable<Boolean> delete;
  private final String keytab;
  private boolean done;

  /**
   * @param attemptKilled asks the RM whether this attempt is KILLED
   * @param delete deletes the staged keytab (logging its own failure)
   * @param keytab the staged keytab's path, for the log
   */
  public KeytabOnKill(Callable<Boolean> attemptKilled, Callable<Boolean> delete, String keytab) {
    this.attemptKilled = attemptKilled;
    this.delete = delete;
    this.keytab = keytab;
  }

  /** The AM unregistered and deleted the keytab itself: the hook does nothing. */
  public synchronized void settle() {
    done = true;
  }

  /**
   * Deletes the keytab if the attempt is KILLED, once. A second caller (the hook, on SIGTERM, while
   * the AM's main thread runs it) waits for the first: the JVM halts when its hooks return, which
   * would cut the main thread's delete short.
   */
  @Override
  public synchronized void run() {
    if (done) {
      return;
    }
    done = true;
    try {
      if (Boolean.TRUE.equals(attemptKilled.call())) {
        delete.call();
      } else {
        LOG.info("Stopping without unregistering, this attempt not killed: the staged keytab {}"
            + " stays for the job's next attempt", keytab);
      }
    } catch (Exception e) {
      LOG.warn("Stopping without unregistering, and cannot ask the RM whether this attempt was"
          + " killed: the staged keytab {} stays; delete it by hand if the job was killed ({})",
          keytab, e.toString());
    }
  }
}
