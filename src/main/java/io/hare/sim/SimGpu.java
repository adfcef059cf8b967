package io.hare.sim;

import io.hare.core.Gpu;
import io.hare.core.GpuType;
import io.hare.core.policy.GpuView;

/** The simulator's mutable state of one GPU. */
final class SimGpu implements GpuView {

  final Gpu gpu;
  final int index; // position in the cluster, for a fixed offer order
  boolean busy;
  String lastJobId;
  long busyMs; // compute time accumulated, for utilisation

  SimGpu(Gpu gpu, int index) {
    this.gpu = gpu;
    this.index = index;
  }

  @Override
  public String id() {
    return gpu.id();
  }

  @Override
  public GpuType type() {
    return gpu.type();
  }

  @Override
  public String node() {
    return gpu.node();
  }

  @Override
  public boolean busy() {
    return busy;
  }

  @Override
  public String lastJobId() {
    return lastJobId;
  }

  @Override
  public String toString() {
    return gpu.id();
  }
}
