package io.hare.bench;

import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * What a scheduler must never do, counted at the end of every tick: a node with more GPU task
 * containers than GPUs (by the containers the AMs hold, and by the scheduler's own node
 * accounting), a container of other than one GPU, a container no task asked for. All zero in a
 * correct run; the bench reports them and tests assert them.
 */
public final class Violations {

  private long overcommittedNodes;
  private long schedulerOvercommits;
  private long wrongSize;
  private long surplus;
  private int peakGpusOnANode;

  void check(List<BenchNode> nodes, Function<NodeId, SchedulerNode> schedulerNodes, int gpus,
      List<BenchJob> jobs) {
    for (BenchNode n : nodes) {
      peakGpusOnANode = Math.max(peakGpusOnANode, n.busy());
      if (n.busy() > gpus) {
        overcommittedNodes++;
      }
      SchedulerNode s = schedulerNodes.apply(n.id());
      if (s != null
          && s.getAllocatedResource().getResourceValue(ResourceInformation.GPU_URI) > gpus) {
        schedulerOvercommits++;
      }
    }
    long wrong = 0;
    long extra = 0;
    for (BenchJob j : jobs) {
      wrong += j.wrongSize;
      extra += j.surplus;
    }
    wrongSize = wrong;
    surplus = extra;
  }

  /** Node-ticks at which a node ran more GPU tasks than it has GPUs (bench's count). */
  public long overcommittedNodes() {
    return overcommittedNodes;
  }

  /** Node-ticks at which the scheduler's node accounting had more GPUs allocated than exist. */
  public long schedulerOvercommits() {
    return schedulerOvercommits;
  }

  /** Containers with other than one GPU. */
  public long wrongSize() {
    return wrongSize;
  }

  /** Containers a job received while none of its tasks needed one. */
  public long surplus() {
    return surplus;
  }

  /** Most GPU task containers seen on one node at a tick's end. */
  public int peakGpusOnANode() {
    return peakGpusOnANode;
  }

  /** Whether nothing was violated. */
  public boolean none() {
    return overcommittedNodes == 0 && schedulerOvercommits == 0 && wrongSize == 0
        && surplus == 0;
  }
}
