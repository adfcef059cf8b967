package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.core.policy.GpuView;
import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * One GPU of a node as the policy sees it. The index is its device index on the node: the one
 * a task container on it is told to use where YARN does not isolate GPUs
 * ({@link io.hare.yarn.GpuDevices}); where YARN does, the NodeManager picks the physical device
 * and the index only counts the node's {@code yarn.io/gpu} units.
 *
 * <p>A GPU whose node left or changed type is <em>retired</em>: it reads as busy forever, so a
 * policy that cached it never hands it out again; the node's new GPUs carry new ids.
 *
 * <p>As for {@link YarnJob}, the policy reads a copy of the state ({@link #busy()},
 * {@link #lastJobId()}) that is published only under the policy lock; the scheduler reads the
 * live state ({@link #running()}, {@link #taken()}).
 */
public final class YarnGpu implements GpuView {

  private final String id;
  private final NodeId node;
  private final int index;
  private final GpuType type;
  private final long position;
  private boolean busy;
  private boolean retired;
  private String lastJobId;
  private boolean leaving;
  private boolean shownBusy;
  private boolean shownLeaving;
  private String shownLastJobId;
  /** In the inventory's set of GPUs to publish (its bookkeeping). */
  boolean touched;

  /** @param position where the GPU sorts in cluster order (the inventory's) */
  YarnGpu(NodeId node, int index, GpuType type, int generation, long position) {
    this.node = node;
    this.index = index;
    this.type = type;
    this.position = position;
    this.id = node + "/gpu" + index + (generation == 0 ? "" : "." + generation);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public GpuType type() {
    return type;
  }

  @Override
  public String node() {
    return node.toString();
  }

  public NodeId nodeId() {
    return node;
  }

  public int index() {
    return index;
  }

  public long position() {
    return position;
  }

  @Override
  public boolean busy() {
    return shownBusy;
  }

  /** Live: running a task or retired, so not free for a new task. */
  public boolean taken() {
    return busy || retired;
  }

  /** Copies the live state to what the policy reads; only under the policy lock. */
  void publish() {
    shownBusy = busy || retired;
    shownLeaving = leaving;
    shownLastJobId = lastJobId;
  }

  @Override
  public boolean leaving() {
    return shownLeaving;
  }

  /** Live: whether the inventory drops it once its task ends. */
  boolean leavingNow() {
    return leaving;
  }

  void leaving(boolean leaving) {
    this.leaving = leaving;
  }

  /** Busy with a task right now (a retired GPU may still be). */
  boolean running() {
    return busy;
  }

  boolean retired() {
    return retired;
  }

  void start(String jobId) {
    busy = true;
    lastJobId = jobId;
  }

  void free() {
    busy = false;
  }

  void retire() {
    retired = true;
  }

  @Override
  public String lastJobId() {
    return shownLastJobId;
  }

  @Override
  public String toString() {
    return id + "(" + type + ")";
  }
}
