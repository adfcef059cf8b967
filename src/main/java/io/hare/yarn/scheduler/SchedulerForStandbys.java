package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.yarn.scheduler.standby.StandbyHost;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * The scheduler as the standbys see it ({@link StandbyHost}): the GPU tasks, the inventory, the
 * policy's line, and the container changes that YARN lets only this package make on an attempt
 * ({@link HareAppAttempt#allocateStandby}, {@link HareAppAttempt#promote},
 * {@link HareAppAttempt#park}). Not thread-safe: the scheduler's lock.
 */
final class SchedulerForStandbys implements StandbyHost {

  private final GpuTasks tasks;
  private final PolicyHost host;
  private final GpuInventory inventory;
  private final ContainerPlacer placer;
  private final IsolatedNodes isolation;

  SchedulerForStandbys(GpuTasks tasks, PolicyHost host, GpuInventory inventory,
      ContainerPlacer placer, IsolatedNodes isolation) {
    this.tasks = tasks;
    this.host = host;
    this.inventory = inventory;
    this.placer = placer;
    this.isolation = isolation;
  }

  @Override
  public YarnJob job(ApplicationId app) {
    return tasks.job(app);
  }

  @Override
  public List<YarnGpu> gpusOn(NodeId node) {
    return inventory.on(node);
  }

  @Override
  public int freeGpusOn(NodeId node) {
    return inventory.freeCountOn(node);
  }

  @Override
  public Collection<YarnGpu> busyGpus() {
    return tasks.busyGpus();
  }

  @Override
  public YarnJob runningOn(YarnGpu gpu) {
    return tasks.runningOn(gpu);
  }

  @Override
  public long expectedEndMs(YarnGpu gpu) {
    return tasks.expectedEndMs(gpu);
  }

  /**
   * The policy's line, with the jobs of queues that yield ({@link QueueGate#yields}: above their
   * guarantee while another queue waits for its own) behind the others: a GPU that frees goes
   * first to a queue below its guarantee, so a standby made ahead for a yielding queue's job would
   * wait while the other queue's job starts in a new container.
   */
  @Override
  public List<YarnJob> line(GpuType type) {
    List<YarnJob> line = new ArrayList<>();
    List<YarnJob> yielding = new ArrayList<>();
    QueueGate gate = host.queueGate();
    for (String id : host.line(type)) {
      YarnJob j = host.activeJob(id);
      if (j != null) {
        (gate.yields(j.queue()) ? yielding : line).add(j);
      }
    }
    line.addAll(yielding);
    return line;
  }

  @Override
  public Object lineVersion() {
    return host.lineVersion();
  }

  @Override
  public boolean isolated(NodeId node) {
    return isolation.isolated(node);
  }

  @Override
  public RMContainer placeStandby(FifoAppAttempt attempt, FiCaSchedulerNode node, int freeGpus,
      int forDevice) {
    return placer.placeStandby(HareAppAttempt.of(attempt), node, freeGpus, forDevice);
  }

  /** The standby takes the attempt's first GPU ask, and its size where larger. */
  @Override
  public boolean promote(FifoAppAttempt a, RMContainer c, FiCaSchedulerNode node, YarnGpu gpu) {
    HareAppAttempt attempt = HareAppAttempt.of(a);
    SchedulerRequestKey key = ContainerPlacer.firstGpuAsk(attempt);
    if (key == null) {
      return false; // no ask left: the standby waits on, and ends if not needed
    }
    Resource before = Resources.clone(c.getAllocatedResource());
    Resource full = Resources.componentwiseMax(attempt.pending(key).getPerAllocationResource(),
        before);
    return Resources.fitsIn(Resources.subtract(full, before), node.getUnallocatedResource())
        && attempt.underWriteLock(() -> attempt.promote(c, node, key, full,
            isolation.device(gpu)));
  }

  @Override
  public boolean park(FifoAppAttempt a, RMContainer c, FiCaSchedulerNode node, Resource small) {
    HareAppAttempt attempt = HareAppAttempt.of(a);
    return attempt.underWriteLock(() -> attempt.park(c, node, small));
  }
}
