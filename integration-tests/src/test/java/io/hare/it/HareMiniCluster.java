package io.hare.it;

import io.hare.core.SchedulerKeys;
import io.hare.yarn.scheduler.HareScheduler;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.NodeId;
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
 * A MiniYARNCluster running the Hare scheduler with real NodeManagers and containers, as the
 * end-to-end tests need it:
 * <ul>
 *   <li>one NodeManager per entry of {@code gpuTypes}, NM i on its own loopback address
 *       127.0.0.(i+2) (node attributes are keyed by host), each declaring {@code yarn.io/gpu};
 *       the RM's view of each node's GPU count is then set with the admin call
 *       {@code updateNodeResource};
 *   <li>the GPU type of each node as the centralized attribute {@code rm.yarn.io/gpu-model},
 *       set with the admin call {@code mapAttributesToNodes}, as an admin would;
 *   <li>containers get {@code JAVA_HOME} (admin env) and a classpath of the live configuration
 *       directory ({@code yarn-site.xml} written after start, for the managed AM) plus the test
 *       JVM's Hadoop jars, without the Hare classes and picocli: those must come from what the
 *       client localizes, as on a real cluster;
 *   <li>NodeManagers stop fast and keep container logs under the cluster's work directory.
 * </ul>
 */
final class HareMiniCluster implements AutoCloseable {

  static final String GPU = ResourceInformation.GPU_URI;
  private static final int NM_MEMORY_MB = 4096;
  private static final int NM_VCORES = 8;

  final MiniYARNCluster cluster;
  /** The live client configuration (RM addresses, container classpath). */
  final YarnConfiguration conf;
  /** GPU type by node host, in NodeManager order. */
  final Map<String, String> typeByHost;
  /** Holds {@code yarn-site.xml} for the containers. */
  final File confDir;

  private HareMiniCluster(MiniYARNCluster cluster, YarnConfiguration conf,
      Map<String, String> typeByHost, File confDir) {
    this.cluster = cluster;
    this.conf = conf;
    this.typeByHost = typeByHost;
    this.confDir = confDir;
  }

  /**
   * Starts NMs with the given GPU types and counts, e.g. {@code [v100, t4, k80]} and
   * {@code [2, 2, 2]}.
   */
  static HareMiniCluster start(String name, List<String> gpuTypes, List<Integer> gpuCounts)
      throws Exception {
    File base = GenericTestUtils.getTestDir(name);
    File confDir = new File(base, "conf");
    if (!confDir.mkdirs() && !confDir.isDirectory()) {
      throw new IOException("cannot create " + confDir);
    }
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, HareScheduler.class, ResourceScheduler.class);
    conf.set(YarnConfiguration.RESOURCE_TYPES, GPU);
    conf.setInt(YarnConfiguration.NM_RESOURCES_PREFIX + GPU, 2);
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
        new File(base, "node-attributes").toURI().toString());
    conf.setLong(SchedulerKeys.REPLAN_INTERVAL_MS, 200);
    conf.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH, containerClasspath(confDir));
    conf.setInt(YarnConfiguration.RM_AM_MAX_ATTEMPTS, 1);

    ResourceUtils.resetNodeResources();
    ResourceUtils.resetResourceTypes(conf);
    MiniYARNCluster cluster = new MiniYARNCluster(name, gpuTypes.size(), 1, 1);
    cluster.init(conf);
    for (int i = 0; i < gpuTypes.size(); i++) {
      cluster.getNodeManager(i).getConfig().set(YarnConfiguration.NM_ADDRESS,
          "127.0.0." + (i + 2) + ":0");
    }
    cluster.start();
    HareMiniCluster hare = null;
    try {
      if (!cluster.waitForNodeManagersToConnect(30_000)) {
        throw new IllegalStateException("NodeManagers did not register");
      }
      YarnConfiguration live = new YarnConfiguration(cluster.getConfig());
      try (OutputStream out = new FileOutputStream(new File(confDir, "yarn-site.xml"))) {
        live.writeXml(out);
      }
      Map<String, String> types = new LinkedHashMap<>();
      for (int i = 0; i < gpuTypes.size(); i++) {
        types.put("127.0.0." + (i + 2), gpuTypes.get(i));
      }
      hare = new HareMiniCluster(cluster, live, types, confDir);
      hare.setGpuTypes();
      hare.setGpuCounts(gpuCounts);
      return hare;
    } finally {
      if (hare == null) {
        cluster.stop();
      }
    }
  }

  ResourceManager rm() {
    return cluster.getResourceManager();
  }

  /** The registered node of {@code host}. */
  NodeId node(String host) {
    for (RMNode n : rm().getRMContext().getRMNodes().values()) {
      if (n.getNodeID().getHost().equals(host)) {
        return n.getNodeID();
      }
    }
    throw new IllegalStateException("no NodeManager on " + host + "; nodes: "
        + rm().getRMContext().getRMNodes().keySet());
  }

  private void setGpuTypes() throws Exception {
    List<NodeToAttributes> mapping = new ArrayList<>();
    typeByHost.forEach((host, type) -> mapping.add(NodeToAttributes.newInstance(host, List.of(
        NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED,
            SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE, NodeAttributeType.STRING, type)))));
    rm().getRMContext().getRMAdminService().mapAttributesToNodes(
        NodesToAttributesMappingRequest.newInstance(AttributeMappingOperationType.REPLACE,
            mapping, true));
  }

  private void setGpuCounts(List<Integer> counts) throws Exception {
    Map<NodeId, ResourceOption> update = new LinkedHashMap<>();
    int i = 0;
    for (String host : typeByHost.keySet()) {
      Resource r = Resource.newInstance(NM_MEMORY_MB, NM_VCORES);
      r.setResourceValue(GPU, counts.get(i++));
      update.put(node(host), ResourceOption.newInstance(r, -1));
    }
    rm().getRMContext().getRMAdminService().updateNodeResource(
        UpdateNodeResourceRequest.newInstance(update));
    // the scheduler learns it from an event; place nothing before it has
    AbstractYarnScheduler<?, ?> scheduler = (AbstractYarnScheduler<?, ?>) rm()
        .getResourceScheduler();
    // (a node the RM has registered may not have reached the scheduler yet: null until then)
    GenericTestUtils.waitFor(() -> update.entrySet().stream().allMatch(e -> {
      var n = scheduler.getSchedulerNode(e.getKey());
      return n != null && n.getTotalResource().getResourceValue(GPU)
          == e.getValue().getResource().getResourceValue(GPU);
    }), 50, 10_000);
  }

  /**
   * The conf directory, then the test JVM's classpath without this project's classes and
   * picocli: the part a cluster's {@code yarn.application.classpath} provides (Hadoop).
   */
  private static String[] containerClasspath(File confDir) {
    List<String> cp = new ArrayList<>();
    cp.add(confDir.getAbsolutePath());
    // surefire and failsafe run tests from a manifest-only jar; this property has the real path
    String testCp = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    for (String e : testCp.split(File.pathSeparator)) {
      String n = new File(e).getName();
      boolean ours = e.endsWith("classes") || e.endsWith("test-classes") || n.startsWith("hare-")
          || n.startsWith("picocli");
      if (!ours && !e.isBlank()) {
        cp.add(e);
      }
    }
    return cp.toArray(new String[0]);
  }

  /** The container log directories of all NodeManagers. */
  List<File> logDirs() {
    List<File> dirs = new ArrayList<>();
    for (int i = 0; i < typeByHost.size(); i++) {
      for (String d : cluster.getNodeManager(i).getConfig()
          .getTrimmedStrings(YarnConfiguration.NM_LOG_DIRS)) {
        dirs.add(new File(d));
      }
    }
    return dirs;
  }

  @Override
  public void close() {
    cluster.stop();
  }
}
