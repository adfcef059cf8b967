package io.hare.yarn.scheduler;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The share of the cluster that ApplicationMasters may hold together, as CapacityScheduler's
 * {@code maximum-am-resource-percent}: an AM container is placed only if, with it, the AMs' memory
 * and vcores stay within {@code share} of the cluster's; the first AM always may (a cluster too
 * small for one would otherwise run nothing). An AM that waits for the limit stays pending and is
 * placed when another AM ends; the first wait of each application is logged. Without a limit a
 * burst of submissions fills the GPU nodes with AMs whose tasks then find no memory. Not
 * thread-safe: the scheduler's lock.
 */
final class AmLimit implements AmGate {

  private static final Logger LOG = LoggerFactory.getLogger(AmLimit.class);

  private final Supplier<Resource> cluster;
  private double share;
  private final Map<ContainerId, Resource> ams = new HashMap<>();
  private final Resource used = Resources.createResource(0, 0);
  private final Set<ApplicationId> logged = new HashSet<>();

  /** @param share of the cluster's memory and vcores, in (0, 1] */
  AmLimit(double share, Supplier<Resource> cluster) {
    this.share = share;
    this.cluster = cluster;
  }

  /** A new share (a refresh of the settings), for the AMs placed from now on. */
  void setShare(double share) {
    this.share = share;
  }

  /** Whether an AM container of {@code size} for {@code app} may be placed now. */
  @Override
  public boolean admits(ApplicationId app, Resource size) {
    if (ams.isEmpty()) {
      return true;
    }
    Resource limit = Resources.multiply(cluster.get(), share);
    Resource with = Resources.add(used, size);
    if (with.getMemorySize() <= limit.getMemorySize()
        && with.getVirtualCores() <= limit.getVirtualCores()) {
      return true;
    }
    if (logged.add(app)) {
      LOG.info("{}: its ApplicationMaster waits: the AMs running hold {} of the {} that {} of"
          + " the cluster allows", app, used, limit, share);
    }
    return false;
  }

  /** An AM container was placed. */
  @Override
  public void placed(RMContainer c) {
    Resource size = c.getAllocatedResource();
    if (ams.put(c.getContainerId(), size) == null) {
      Resources.addTo(used, size);
    }
    logged.remove(c.getApplicationAttemptId().getApplicationId());
  }

  /** A container ended: if an AM's, its share frees. */
  void ended(ContainerId id) {
    Resource size = ams.remove(id);
    if (size != null) {
      Resources.subtractFrom(used, size);
    }
  }

  /** AM containers counted now. */
  int count() {
    return ams.size();
  }
}
