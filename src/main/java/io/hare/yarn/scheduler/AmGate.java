package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;

/**
 * Whether an ApplicationMaster container may be placed now: the AM limits of its queue and the
 * queue's per-user limit ({@link HareQueues}), or one cluster-wide {@link AmLimit}. An AM that is
 * not admitted stays pending and is asked again at the next heartbeat.
 */
interface AmGate {

  /** Whether an AM container of {@code size} for {@code app} may be placed now. */
  boolean admits(ApplicationId app, Resource size);

  /** An AM container was placed. */
  void placed(RMContainer c);
}
