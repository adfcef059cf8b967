package io.hare.bench;

import io.hare.core.SchedulerKeys;
import java.nio.file.Path;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;

/**
 * The two schedulers the bench compares, each with its configuration for this workload.
 *
 * <p>CapacityScheduler gets its best heartbeat-driven settings for many jobs of one-GPU,
 * locality-free asks: the DominantResourceCalculator (so {@code yarn.io/gpu} counts), one queue
 * at 100%, every ask {@code ANY} and no locality delay, and several containers per heartbeat.
 * The key one is {@code per-node-heartbeat.maximum-offswitch-assignments}: its default of 1
 * would place one container per node heartbeat, since every ask here is off-switch; it is set to
 * the node's GPU count so one heartbeat can fill a node. Asynchronous scheduling stays off: it
 * places from a background thread outside the heartbeat, so there would be no heartbeat path to
 * time, and in YARN it needs multi-node lookup to pay off; the bench compares the heartbeat path.
 */
public enum Contender {

  HARE("hare"),
  CAPACITY("capacity");

  private static final String CS = "yarn.scheduler.capacity.";

  private final String label;

  Contender(String label) {
    this.label = label;
  }

  /** The name in reports and JSON keys. */
  public String label() {
    return label;
  }

  /**
   * The RM configuration: GPUs declared, liveness timeouts far beyond any bench run (the bench's
   * clock is not the RM's), node attributes stored under {@code work}, and the scheduler's own
   * settings.
   */
  YarnConfiguration conf(int gpusPerNode, Path work) {
    YarnConfiguration c = new YarnConfiguration();
    c.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    c.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        work.resolve("node-attributes").toUri().toString());
    long hourMs = 3_600_000L;
    c.setLong(YarnConfiguration.RM_AM_EXPIRY_INTERVAL_MS, hourMs);
    c.setLong(YarnConfiguration.RM_NM_EXPIRY_INTERVAL_MS, hourMs);
    c.setLong(YarnConfiguration.RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS, hourMs);
    c.setInt(YarnConfiguration.RM_MAX_COMPLETED_APPLICATIONS, 0); // finished apps leave the RM
    if (this == HARE) {
      c.setClass(YarnConfiguration.RM_SCHEDULER, TimedHareScheduler.class,
          ResourceScheduler.class);
      c.set(SchedulerKeys.PROFILES_FILE, work.resolve("profiles.csv").toString());
      // as CapacityScheduler's below: the queue's default of 10,000 would refuse larger runs
      c.setInt(SchedulerKeys.QUEUE_DEFAULT_MAXIMUM_APPLICATIONS, 100_000);
    } else {
      c.setClass(YarnConfiguration.RM_SCHEDULER, TimedCapacityScheduler.class,
          ResourceScheduler.class);
      c.set(CS + "resource-calculator", DominantResourceCalculator.class.getName());
      c.set(CS + "root.queues", "default");
      c.set(CS + "root.default.capacity", "100");
      c.set(CS + "root.default.maximum-capacity", "100");
      c.set(CS + "root.default.user-limit-factor", "1");
      c.set(CS + "maximum-am-resource-percent", "1.0");
      c.set(CS + "maximum-applications", "100000");
      c.set(CS + "node-locality-delay", "-1");
      c.set(CS + "rack-locality-additional-delay", "-1");
      c.set(CS + "per-node-heartbeat.multiple-assignments-enabled", "true");
      c.set(CS + "per-node-heartbeat.maximum-container-assignments", "-1");
      c.set(CS + "per-node-heartbeat.maximum-offswitch-assignments",
          Integer.toString(Math.max(1, gpusPerNode)));
      c.set(CS + "schedule-asynchronously.enable", "false");
    }
    return c;
  }
}
