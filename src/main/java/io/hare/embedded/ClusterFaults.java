package io.hare.embedded;

import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.ContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerSignalContext;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Faults done to an {@link EmbeddedCluster} from outside, the way they happen to a real one: the
 * ResourceManager restarts, a NodeManager vanishes, a container's processes die. Nothing in the
 * scheduler or the ApplicationMaster knows about them; they see what YARN shows them.
 *
 * <p>{@link #settings} are the cluster settings these faults need: work-preserving RM recovery
 * with a file-system state store, a short NodeManager expiry, and short client retries so that
 * AMs and clients reconnect to a restarted RM within a second rather than YARN's 30 s.
 *
 * <p>Called from one thread (the demo's run loop); each call blocks until the fault is done.
 */
public final class ClusterFaults {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterFaults.class);
  /** How long the RM waits for a silent NodeManager before it declares the node lost. */
  public static final long NM_EXPIRY_MS = 3000;

  private final EmbeddedCluster cluster;

  public ClusterFaults(EmbeddedCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * Settings of a cluster that faults are injected into, to add to {@link EmbeddedCluster#start}'s.
   *
   * <p>Besides recovery: MiniYARNCluster's NodeManagers normally call the ResourceManager
   * object in-process, bound to the first RM for good, so they could never find a restarted
   * one; here they talk RPC to it, as real ones do ({@code yarn.minicluster.use-rpc}), which
   * needs the RM on fixed ports: free ones are picked now, and a restarted RM binds them again.
   *
   * @param stateDir where the ResourceManager keeps its recovery state (created by the RM)
   * @throws IOException if no free port can be found
   */
  public static Map<String, String> settings(File stateDir) throws IOException {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(YarnConfiguration.RECOVERY_ENABLED, "true");
    s.put(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, "true");
    s.put(YarnConfiguration.RM_STORE, FileSystemRMStateStore.class.getName());
    s.put(YarnConfiguration.FS_RM_STATE_STORE_URI, stateDir.toURI().toString());
    // YARN waits 10 s after a restart before it places anything, so that every NodeManager has
    // re-registered its containers; the embedded NMs do within a heartbeat or two
    s.put(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, "2000");
    s.put(YarnConfiguration.RM_NM_EXPIRY_INTERVAL_MS, Long.toString(NM_EXPIRY_MS));
    // AMs, NodeManagers and clients retry a refused RM connection every 30 s by default
    s.put(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "200");
    s.put(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, "true");
    s.put(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, "true");
    for (String key : List.of(YarnConfiguration.RM_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_ADDRESS, YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
        YarnConfiguration.RM_ADMIN_ADDRESS, YarnConfiguration.RM_WEBAPP_ADDRESS)) {
      s.put(key, MiniYARNCluster.getHostname() + ":" + FreePorts.next());
    }
    return s;
  }

  /**
   * Stops the ResourceManager and starts a new one on the same addresses from the same
   * configuration, as an admin restarting it would; with {@link #settings} it recovers the
   * applications from its state store and the running containers from the NodeManagers, which
   * resync. Returns when every running NodeManager has re-registered and the new scheduler has
   * the nodes' GPU counts.
   *
   * @return how long the ResourceManager was down, ms
   */
  public long restartResourceManager(long timeoutMs) throws Exception {
    if (cluster.highlyAvailable()) {
      // the standby would take over while the active one restarts: a failover, not a restart
      throw new IllegalStateException("a restart of one ResourceManager of an HA pair is a"
          + " failover; use failOver");
    }
    long t0 = System.currentTimeMillis();
    LOG.info("fault: restarting the ResourceManager");
    cluster.miniCluster().restartResourceManager(0);
    long up = System.currentTimeMillis();
    cluster.afterResourceManagerRestart(timeoutMs);
    LOG.info("fault: the ResourceManager is back after {} ms; NodeManagers re-registered after"
        + " {} ms", up - t0, System.currentTimeMillis() - t0);
    return up - t0;
  }

  /** What a failover did: the RM that stopped, the one that took over, and when. */
  public record FailOver(String from, String to, long activeAfterMs, long nodesBackAfterMs) {}

  /**
   * Stops the active ResourceManager of an HA pair, as when its host goes down, and waits
   * until the standby has taken over by itself (its elector wins the ZooKeeper lock; it
   * recovers the applications from the ZooKeeper state store) and every running NodeManager,
   * which fails over to it, has registered; the new scheduler then has the nodes' GPU counts.
   * Then starts the stopped RM again, which joins as the standby, so the pair can fail over
   * once more.
   */
  public FailOver failOver(long timeoutMs) throws Exception {
    if (!cluster.highlyAvailable()) {
      throw new IllegalStateException("a failover needs an HA pair of ResourceManagers");
    }
    MiniYARNCluster mini = cluster.miniCluster();
    int from = mini.getActiveRMIndex();
    if (from < 0) {
      throw new IllegalStateException("no ResourceManager is active");
    }
    long t0 = System.currentTimeMillis();
    LOG.info("fault: stopping the active ResourceManager {}", rmId(from));
    mini.stopResourceManager(from);
    int[] to = {-1};
    GenericTestUtils.waitFor(() -> {
      to[0] = mini.getActiveRMIndex();
      return to[0] >= 0;
    }, 50, (int) timeoutMs);
    long active = System.currentTimeMillis() - t0;
    cluster.afterResourceManagerRestart(timeoutMs);
    long nodesBack = System.currentTimeMillis() - t0;
    LOG.info("fault: {} took over after {} ms; NodeManagers registered with it after {} ms",
        rmId(to[0]), active, nodesBack);
    mini.restartResourceManager(from);
    GenericTestUtils.waitFor(() -> mini.getResourceManager(from) != null
        && mini.getResourceManager(from).getRMContext().getHAServiceState()
            == HAServiceProtocol.HAServiceState.STANDBY, 50, (int) timeoutMs);
    LOG.info("fault: {} is back as the standby", rmId(from));
    return new FailOver(rmId(from), rmId(to[0]), active, nodesBack);
  }

  private static String rmId(int index) {
    return HighAvailability.RM_IDS.get(index);
  }

  /**
   * Stops the NodeManager on {@code host} as if its machine went away: its containers' processes
   * are killed and the ResourceManager is not told (a stopping NM would unregister, which the RM
   * takes as an orderly shutdown); then waits until the RM has declared the node lost, after
   * {@link #NM_EXPIRY_MS} without a heartbeat.
   */
  public void stopNodeManager(String host, long timeoutMs) throws Exception {
    int index = index(host);
    NodeId id = cluster.node(host);
    LOG.info("fault: stopping the NodeManager on {} without telling the ResourceManager", host);
    NodeManager nm = cluster.miniCluster().getNodeManager(index);
    // a lost node's processes die at once, as in a crash: a graceful stop first signals them
    // and waits, and a short task ended in that time, recording an end a lost one never has
    ContainerExecutor exec = nm.getNMContext().getContainerExecutor();
    for (Container c : nm.getNMContext().getContainers().values()) {
      kill(exec, c, host);
    }
    // the one flag that keeps a stopping NM from unregistering (an NM the RM decommissioned
    // does not unregister either); nothing else reads it on the way down
    nm.getNMContext().setDecommissioned(true);
    nm.stop();
    cluster.markStopped(index);
    GenericTestUtils.waitFor(() -> !cluster.rm().getRMContext().getRMNodes().containsKey(id)
        && cluster.rm().getResourceScheduler().getSchedulerNode(id) == null, 50,
        (int) timeoutMs);
    LOG.info("fault: the ResourceManager declared {} lost", host);
  }

  /** Whether the NodeManager on {@code host} is still running. */
  public boolean isRunning(String host) {
    return cluster.running().contains(index(host));
  }

  /**
   * Kills the processes of a running container with SIGKILL, through its NodeManager's own
   * executor (the process group, as the NM kills containers), as a crash or the kernel's OOM
   * killer would: the process gets no chance to clean up and YARN sees the container exit.
   *
   * @return the host of the container's node, empty if no running NodeManager runs it
   */
  public Optional<String> killContainer(ContainerId id) throws IOException {
    for (int i : cluster.running()) {
      NodeManager nm = cluster.miniCluster().getNodeManager(i);
      Container c = nm.getNMContext().getContainers().get(id);
      if (c == null) {
        continue;
      }
      if (!kill(nm.getNMContext().getContainerExecutor(), c, EmbeddedCluster.host(i))) {
        return Optional.empty(); // not launched yet, or already gone
      }
      return Optional.of(EmbeddedCluster.host(i));
    }
    return Optional.empty();
  }

  /** SIGKILL to the container's process group; false when it has no process (yet or any more). */
  private static boolean kill(ContainerExecutor exec, Container c, String host)
      throws IOException {
    String pid = exec.getProcessId(c.getContainerId());
    if (pid == null) {
      return false;
    }
    LOG.info("fault: killing container {} (pid {}) on {}", c.getContainerId(), pid, host);
    exec.signalContainer(new ContainerSignalContext.Builder().setContainer(c)
        .setUser(c.getUser()).setPid(pid).setSignal(ContainerExecutor.Signal.KILL).build());
    return true;
  }

  private int index(String host) {
    for (int i = 0; i < cluster.nodes().size(); i++) {
      if (EmbeddedCluster.host(i).equals(host)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no NodeManager on " + host);
  }
}
