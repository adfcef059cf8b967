package io.hare.yarn.app;

import org.apache.hadoop.yarn.api.records.NodeId;

/** The GPU type of a node, for HARE_GPU_TYPE; the empty string when unknown. Never throws. */
public interface GpuTypes {

  GpuTypes UNKNOWN = node -> "";

  String typeOf(NodeId node);
}
