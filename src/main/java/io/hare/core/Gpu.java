package io.hare.core;

import java.util.Objects;

/**
 * One GPU of the cluster: an id unique in the cluster, its type and the node that hosts it.
 */
public record Gpu(String id, GpuType type, String node) {

  public Gpu {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(node, "node");
  }
}
