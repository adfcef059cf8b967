package io.hare.embedded;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore;

/**
 * The settings of an {@link EmbeddedCluster}'s pair of ResourceManagers, as an admin sets up RM
 * high availability: two RM ids, each with its own fixed addresses (clients, AMs and
 * NodeManagers fail over between them), automatic failover by the RMs' embedded elector, and
 * work-preserving recovery from a ZooKeeper state store, so that the RM that takes over carries
 * on the running applications and their containers.
 */
final class HighAvailability {

  static final List<String> RM_IDS = List.of("rm0", "rm1");

  private HighAvailability() {}

  /**
   * Sets the pair's settings on {@code conf}, over what it had: RM addresses, the state store
   * and recovery among them.
   *
   * @param clusterId the pair's name in ZooKeeper (its election and state live under it)
   */
  static void configure(YarnConfiguration conf, String clusterId, EmbeddedZooKeeper zk)
      throws IOException {
    conf.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
    conf.set(YarnConfiguration.RM_HA_IDS, String.join(",", RM_IDS));
    conf.set(YarnConfiguration.RM_CLUSTER_ID, clusterId);
    conf.setBoolean(YarnConfiguration.AUTO_FAILOVER_ENABLED, true);
    conf.unset(YarnConfiguration.RM_HA_ID); // each RM gets its own; clients have none
    // NodeManagers reach the RMs by RPC (the in-process shortcut is bound to one RM object),
    // which needs each RM's addresses fixed before it starts; a client needs them all anyway
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    for (String key : YarnConfiguration.getServiceAddressConfKeys(conf)) {
      conf.unset(key); // a single RM's; each RM of the pair takes its own below
    }
    for (String id : RM_IDS) {
      for (String key : YarnConfiguration.getServiceAddressConfKeys(conf)) {
        conf.set(HAUtil.addSuffix(key, id),
            MiniYARNCluster.getHostname() + ":" + FreePorts.next());
      }
    }
    conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
    conf.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
    conf.set(YarnConfiguration.RM_STORE, ZKRMStateStore.class.getName());
    zk.clientSettings().forEach(conf::set);
    // AMs, NodeManagers and clients try the other RM after 0.1-1 s rather than YARN's
    // default of the connect retry interval (30 s unless set)
    conf.setLong(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_BASE_MS, 100);
    conf.setLong(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_MAX_MS, 1000);
  }
}
