package org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;

/**
 * Makes {@link FifoAppAttempt} extensible outside this package: its constructor is
 * package-private (Hadoop 3.4 and 3.5), yet a scheduler that extends {@link FifoScheduler} (the
 * Hare scheduler does, so the RM's {@code /ws/v1/cluster/scheduler} REST resource answers for it;
 * YARN's FIFO web page fails on both versions and Hare serves its own, see the README)
 * must keep {@code FifoAppAttempt}s in its applications, which FifoScheduler's own code casts
 * to. This class adds nothing else; it lives in Hadoop's package only for that constructor.
 */
public abstract class FifoAppAttemptBase extends FifoAppAttempt {

  protected FifoAppAttemptBase(ApplicationAttemptId id, String user, Queue queue,
      ActiveUsersManager users, RMContext rmContext) {
    super(id, user, queue, users, rmContext);
  }
}
