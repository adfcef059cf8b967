package io.hare.yarn.scheduler;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.exceptions.ResourceNotFoundException;
import org.apache.hadoop.yarn.util.resource.Resources;

/** The {@code yarn.io/gpu} count of a resource; 0 when the cluster declares no GPU type. */
public final class Gpus {

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

  /** A copy of {@code r} with no GPUs. */
  public static Resource without(Resource r) {
    Resource out = Resources.clone(r);
    if (of(r) > 0) {
      out.setResourceValue(ResourceInformation.GPU_URI, 0);
    }
    return out;
  }

  /**
   * The size of a standby of a task of size {@code r}: its memory, so that the task can start in
   * it at once, but no GPU and no vcores (it idles; both come with its promotion).
   */
  public static Resource standby(Resource r) {
    Resource out = without(r);
    out.setVirtualCores(0);
    return out;
  }
}
