package io.hare.yarn.scheduler.standby;

import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Task containers that go without standbys because YARN isolates their node's GPUs per
 * container ({@link StandbyHost#isolated}): YARN's GPU plugin assigns devices when a container
 * launches and ignores resource increases and decreases, so there a promoted standby would have
 * no device and a parked container would keep its own while the scheduler gives "its" GPU to
 * another container. Each such container is counted, and the first on each node is logged. Not
 * thread-safe: the scheduler's lock.
 */
final class IsolationSkips {

  private static final Logger LOG = LoggerFactory.getLogger(IsolationSkips.class);

  private final Runnable counter;
  private final Set<NodeId> logged = new HashSet<>();

  /** @param counter called for each task container that goes without standbys for isolation */
  IsolationSkips(Runnable counter) {
    this.counter = counter;
  }

  /**
   * A task container of a job that takes standbys was made on isolated {@code node} without the
   * standby protocol, or its parking was refused there: counted, and logged for the first on
   * each node.
   */
  void skipped(NodeId node) {
    counter.run();
    if (logged.add(node)) {
      LOG.info("node {}: YARN isolates its GPUs per container, so standby and parked containers"
          + " are not used there (YARN assigns a device only at launch); its tasks start in new"
          + " containers", node);
    }
  }
}
