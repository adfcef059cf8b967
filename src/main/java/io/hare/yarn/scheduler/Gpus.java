package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.exceptions.ResourceNotFoundException;

/** The {@code yarn.io/gpu} count of a resource; 0 when the cluster declares no GPU type. */
final class Gpus {

  private Gpus() {}

  static long of(Resource r) {
    if (r == null) {
      return 0;
    }
    try {
      return r.getResourceValue(ResourceInformation.GPU_URI);
    } catch (ResourceNotFoundException e) {
      return 0;
    }
  }
}
