package io.hare.embedded;

import io.hare.core.SchedulerKeys;
import io.hare.yarn.scheduler.HareScheduler;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.api.protocolrecords.AttributeMappingOperationType;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeToAttributes;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodesToAttributesMappingRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * A YARN cluster in this JVM (MiniYARNCluster) running the Hare scheduler with real
 * NodeManagers and containers, for {@code hare demo}, the benchmarks and the integration tests.
 * The only thing emulated is the GPU: NodeManagers declare {@code yarn.io/gpu} counts and carry
 * a GPU-model node attribute, as an admin would set them.
 * <ul>
 *   <li>One NodeManager per {@link Node}, NM i on its own loopback address 127.0.0.(i+2) (node
 *       attributes are keyed by host); the RM's view of each node's GPU count is set with the
 *       admin call {@code updateNodeResource} (MiniYARNCluster starts every NM with the same
 *       resources).
 *   <li>The GPU type of each node is the centralized attribute {@code rm.yarn.io/gpu-model}, set
 *       with the admin call {@code mapAttributesToNodes}.
 *   <li>Containers get {@code JAVA_HOME} (admin env) and a classpath of the live configuration
 *       directory ({@code yarn-site.xml} written after start, for the managed AMs) plus this
 *       JVM's Hadoop jars, without the Hare classes and picocli: those come from what the client
 *       localizes, as on a real cluster.
 *   <li>NodeManagers stop fast and keep container logs under the cluster's work directory.
 * </ul>
 *
 * <p>Not thread-safe, and one at a time per JVM: YARN caches node resources JVM-wide, and
 * MiniYARNCluster puts its work directory under the {@code test.build.data} system property,
 * which {@link #start} sets.
 */
public final class EmbeddedCluster implements AutoCloseable {

  /**
   * Guice warns through java.util.logging, once per web app, that one JVM runs several
   * GuiceFilters: here it does by design (the RM's and each NodeManager's web apps). Held so the
   * level stays set (java.util.logging keeps loggers weakly).
   */
  private static final java.util.logging.Logger GUICE_FILTER =
      java.util.logging.Logger.getLogger("com.google.inject.servlet.GuiceFilter");

  /** One NodeManager: its GPU type and how many GPUs it has. */
  public record Node(String gpuType, int gpus) {
    public Node {
      if (gpus < 1) {
        throw new IllegalArgumentException("a node needs >= 1 GPU, got " + gpus);
      }
    }
  }

  public static final String GPU = ResourceInformation.GPU_URI;
  public static final int NM_MEMORY_MB = 4096;
  public static final int NM_VCORES = 8;

  private final MiniYARNCluster cluster;
  /** The HA pair's ZooKeeper; null with one ResourceManager. */
  private final EmbeddedZooKeeper zk;
  private final YarnConfiguration conf;
  private final Map<String, String> typeByHost;
  private final List<Node> nodes;
  private final File workDir;
  private final SchedulerJournal journal = new SchedulerJournal();
  /** Indexes of the NodeManagers stopped by {@link ClusterFaults#stopNodeManager}. */
  private final Set<Integer> stopped = new HashSet<>();

  private EmbeddedCluster(MiniYARNCluster cluster, EmbeddedZooKeeper zk, YarnConfiguration conf,
      Map<String, String> typeByHost, List<Node> nodes, File workDir) {
    this.cluster = cluster;
    this.zk = zk;
    this.conf = conf;
    this.typeByHost = typeByHost;
    this.nodes = List.copyOf(nodes);
    this.workDir = workDir;
  }

  /**
   * Starts the cluster and waits until the scheduler knows every node's GPUs.
   *
   * @param workDir where the cluster keeps its state and container logs (created)
   * @param name names the cluster (a directory under {@code workDir})
   * @param settings more settings for the RM and NMs (e.g. {@code yarn.scheduler.hare.policy});
   *     they win over this class's defaults
   */
  public static EmbeddedCluster start(File workDir, String name, List<Node> nodes,
      Configuration settings) throws IOException, InterruptedException, TimeoutException {
    return start(workDir, name, nodes, settings, 1);
  }

  /**
   * Starts the cluster with one ResourceManager, or two as a high-availability pair
   * ({@link HighAvailability}: automatic failover by YARN's embedded elector and a ZooKeeper
   * state store, on a ZooKeeper server of the cluster's own), and waits until the scheduler
   * of the active one knows every node's GPUs.
   *
   * @param resourceManagers 1, or 2 for a high-availability pair; with two, the pair's
   *     settings win over {@code settings} (its state store and RM addresses among them)
   */
  public static EmbeddedCluster start(File workDir, String name, List<Node> nodes,
      Configuration settings, int resourceManagers)
      throws IOException, InterruptedException, TimeoutException {
    if (resourceManagers != 1 && resourceManagers != 2) {
      throw new IllegalArgumentException("an embedded cluster runs 1 ResourceManager or 2 (a"
          + " high-availability pair), not " + resourceManagers);
    }
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("an embedded cluster needs >= 1 node");
    }
    GUICE_FILTER.setLevel(java.util.logging.Level.SEVERE);
    File confDir = new File(workDir, "conf");
    if (!confDir.mkdirs() && !confDir.isDirectory()) {
      throw new IOException("cannot create " + confDir);
    }
    System.setProperty(GenericTestUtils.SYSPROP_TEST_DATA_DIR, workDir.getAbsolutePath());
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, HareScheduler.class, ResourceScheduler.class);
    conf.set(YarnConfiguration.RESOURCE_TYPES, GPU);
    conf.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + GPU, 1);
    conf.setInt("yarn.minicluster." + YarnConfiguration.NM_PMEM_MB, NM_MEMORY_MB);
    conf.setInt(YarnConfiguration.NM_VCORES, NM_VCORES);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.set(YarnConfiguration.NM_ADMIN_USER_ENV, "JAVA_HOME=" + System.getProperty("java.home"));
    // NM stop takes ~17 s otherwise; logs stay for the assertions and for debugging
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 600);
    conf.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        new File(workDir, "node-attributes").toURI().toString());
    conf.setLong(SchedulerKeys.REPLAN_INTERVAL_MS, 200);
    conf.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH, containerClasspath(confDir));
    conf.setInt(YarnConfiguration.RM_AM_MAX_ATTEMPTS, 1);
    settings.forEach(e -> conf.set(e.getKey(), e.getValue()));
    EmbeddedZooKeeper zk = null;
    if (resourceManagers == 2) {
      zk = EmbeddedZooKeeper.start(new File(workDir, "zookeeper"));
      try {
        HighAvailability.configure(conf, name, zk);
      } catch (IOException | RuntimeException e) {
        zk.close(); // no cluster owns it yet
        throw e;
      }
    }

    ResourceUtils.resetNodeResources();
    ResourceUtils.resetResourceTypes(conf);
    MiniYARNCluster cluster = new MiniYARNCluster(name, resourceManagers, nodes.size(), 1, 1);
    EmbeddedCluster started = null;
    try {
      cluster.init(conf);
      for (int i = 0; i < nodes.size(); i++) {
        cluster.getNodeManager(i).getConfig().set(YarnConfiguration.NM_ADDRESS,
            host(i) + ":0");
      }
      cluster.start();
      if (!cluster.waitForNodeManagersToConnect(30_000)) {
        throw new IOException("the NodeManagers did not register within 30 s");
      }
      YarnConfiguration live = new YarnConfiguration(cluster.getConfig());
      try (OutputStream out = new FileOutputStream(new File(confDir, "yarn-site.xml"))) {
        live.writeXml(out);
      }
      // the AMs' and tasks' own logs (stderr in each container's log directory)
      java.nio.file.Files.writeString(new File(confDir, "log4j.properties").toPath(),
          "log4j.rootLogger=WARN, err\nlog4j.logger.io.hare=INFO\n"
          + "log4j.appender.err=org.apache.log4j.ConsoleAppender\n"
          + "log4j.appender.err.target=System.err\n"
          + "log4j.appender.err.layout=org.apache.log4j.PatternLayout\n"
          + "log4j.appender.err.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{1}: %m%n\n");
      Map<String, String> types = new LinkedHashMap<>();
      for (int i = 0; i < nodes.size(); i++) {
        types.put(host(i), nodes.get(i).gpuType());
      }
      started = new EmbeddedCluster(cluster, zk, live, types, nodes, workDir);
      started.attachJournal();
      started.setGpuTypes();
      started.setGpuCounts();
      return started;
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot set the nodes' GPU types and counts: " + e, e);
    } finally {
      if (started == null) {
        cluster.stop();
        if (zk != null) {
          zk.close();
        }
      }
    }
  }

  /** The loopback address of NodeManager {@code i}. */
  public static String host(int i) {
    return "127.0.0." + (i + 2);
  }

  /** The live client configuration (RM addresses, container classpath). */
  public YarnConfiguration conf() {
    return conf;
  }

  /** GPU type by node host, in NodeManager order. */
  public Map<String, String> typeByHost() {
    return typeByHost;
  }

  public File workDir() {
    return workDir;
  }

  /** What the Hare scheduler did with GPU tasks since the cluster started (empty for others). */
  public SchedulerJournal journal() {
    return journal;
  }

  /**
   * The active ResourceManager: the only one, or the active one of an HA pair (during a failover
   * this waits for one, up to the RMs' ZooKeeper timeout, and is null if none became active).
   */
  public ResourceManager rm() {
    return cluster.getResourceManager();
  }

  /** Whether the cluster runs a high-availability pair of ResourceManagers. */
  public boolean highlyAvailable() {
    return zk != null;
  }

  public MiniYARNCluster miniCluster() {
    return cluster;
  }

  /** The registered node of {@code host}. */
  public NodeId node(String host) {
    for (RMNode n : rm().getRMContext().getRMNodes().values()) {
      if (n.getNodeID().getHost().equals(host)) {
        return n.getNodeID();
      }
    }
    throw new IllegalStateException("no NodeManager on " + host + "; nodes: "
        + rm().getRMContext().getRMNodes().keySet());
  }

  /** The container log directories of all NodeManagers. */
  public List<File> logDirs() {
    List<File> dirs = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      for (String d : cluster.getNodeManager(i).getConfig()
          .getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS)) {
        dirs.add(new File(d));
      }
    }
    return dirs;
  }

  /** The journal listens to the scheduler of the ResourceManager running now. */
  private void attachJournal() {
    if (rm().getResourceScheduler() instanceof HareScheduler hare) {
      hare.addTaskListener(journal);
    }
  }

  /**
   * After the ResourceManager was replaced by a new one
   * ({@link ClusterFaults#restartResourceManager}): waits until every running NodeManager has
   * registered with it, then gives the new scheduler the journal and checks the nodes' GPU
   * counts. The counts were set by an admin call, of which the new RM has no record; but each
   * NodeManager took the count it was given and re-registers with it, so they are set again only
   * where they differ. The GPU types are node attributes, which the RM recovers from its
   * attribute store.
   */
  void afterResourceManagerRestart(long timeoutMs) throws Exception {
    GenericTestUtils.waitFor(() -> {
      ResourceManager rm = cluster.getResourceManager();
      if (rm == null || rm.getServiceState() != Service.STATE.STARTED) {
        return false;
      }
      for (int i : running()) {
        String h = host(i);
        if (rm.getRMContext().getRMNodes().values().stream().noneMatch(n -> n.getNodeID()
            .getHost().equals(h) && n.getState() == NodeState.RUNNING)) {
          return false;
        }
      }
      return true;
    }, 50, (int) timeoutMs);
    attachJournal();
    setGpuCounts();
  }

  /** Indexes of the NodeManagers that have not been stopped. */
  List<Integer> running() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (!stopped.contains(i)) {
        out.add(i);
      }
    }
    return out;
  }

  void markStopped(int index) {
    stopped.add(index);
  }

  /** The nodes as started, in NodeManager order. */
  public List<Node> nodes() {
    return nodes;
  }

  private void setGpuTypes() throws Exception {
    List<NodeToAttributes> mapping = new ArrayList<>();
    typeByHost.forEach((host, type) -> mapping.add(NodeToAttributes.newInstance(host, List.of(
        NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED,
            conf.get(SchedulerKeys.GPU_TYPE_ATTRIBUTE, SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE),
            NodeAttributeType.STRING, type)))));
    rm().getRMContext().getRMAdminService().mapAttributesToNodes(
        NodesToAttributesMappingRequest.newInstance(AttributeMappingOperationType.REPLACE,
            mapping, true));
  }

  /** Gives the running nodes their GPU counts and waits until the scheduler has them. */
  private void setGpuCounts() throws Exception {
    AbstractYarnScheduler<?, ?> scheduler = (AbstractYarnScheduler<?, ?>) rm()
        .getResourceScheduler();
    Map<NodeId, ResourceOption> update = new LinkedHashMap<>();
    for (int i : running()) {
      Resource r = Resource.newInstance(NM_MEMORY_MB, NM_VCORES);
      r.setResourceValue(GPU, nodes.get(i).gpus());
      NodeId id = node(host(i));
      var known = scheduler.getSchedulerNode(id);
      // a NodeManager re-registers after an RM restart with the count it was last given
      if (known == null || !known.getTotalResource().equals(r)) {
        update.put(id, ResourceOption.newInstance(r, -1));
      }
    }
    if (update.isEmpty()) {
      return;
    }
    rm().getRMContext().getRMAdminService().updateNodeResource(
        UpdateNodeResourceRequest.newInstance(update));
    // the scheduler learns it from an event; place nothing before it has
    // (a node the RM has registered may not have reached the scheduler yet: null until then)
    GenericTestUtils.waitFor(() -> update.entrySet().stream().allMatch(e -> {
      var n = scheduler.getSchedulerNode(e.getKey());
      return n != null && n.getTotalResource().getResourceValue(GPU)
          == e.getValue().getResource().getResourceValue(GPU);
    }), 50, 10_000);
  }

  /**
   * The conf directory, then this JVM's classpath without Hare's classes and picocli: the part a
   * cluster's {@code yarn.application.classpath} provides (Hadoop).
   */
  static String[] containerClasspath(File confDir) {
    List<String> cp = new ArrayList<>();
    cp.add(confDir.getAbsolutePath());
    // surefire and failsafe run tests from a manifest-only jar; this property has the real path
    String jvmCp = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    for (String e : jvmCp.split(File.pathSeparator)) {
      String n = new File(e).getName();
      boolean ours = e.endsWith("classes") || e.endsWith("test-classes") || n.startsWith("hare-")
          || n.startsWith("picocli");
      if (!ours && !e.isBlank()) {
        cp.add(e);
      }
    }
    return cp.toArray(new String[0]);
  }

  @Override
  public void close() {
    try {
      cluster.stop();
    } finally {
      if (zk != null) {
        zk.close();
      }
    }
  }
}
