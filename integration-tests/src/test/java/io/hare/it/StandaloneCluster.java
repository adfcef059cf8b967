package io.hare.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.EmbeddedZooKeeper;
import io.hare.embedded.FreePorts;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A YARN cluster of separate JVM processes installed as the tarball's README tells an admin:
 * one ResourceManager (or an HA pair of two) and one NodeManager per
 * {@link EmbeddedCluster.Node}, each started with
 * {@code java -cp CONF:HADOOP_JARS/*:HARE_HOME/lib/*} (Hadoop's own jars first, then the unpacked
 * tarball's lib/), its own configuration directory and its own log file under {@code dir/logs}.
 *
 * <ul>
 *   <li>RM on 127.0.0.1, NodeManager i on 127.0.0.(i+2) ({@link EmbeddedCluster#host}), every
 *       port picked free at start; NMs keep their ports across a restart, so a restarted NM is
 *       the same node to the RM.
 *   <li>The Hare scheduler, GPUs as the resource {@code yarn.io/gpu}, NM i with a static count
 *       of its node's GPUs; the node's GPU type comes from the RM's mapping file
 *       ({@code yarn.scheduler.hare.gpu-type.mapping-file}); RM recovery on, with a
 *       file-system state store under {@code dir}. No auxiliary services (two NMs on one host
 *       would need their own shuffle ports).
 *   <li>An HA pair: rm0 and rm1, both on 127.0.0.1 with their own ports and configuration
 *       directories (each names its own id), automatic failover (YARN's embedded elector) and a
 *       ZooKeeper state store, on an {@link EmbeddedZooKeeper} in the test's JVM.
 *   <li>{@link #hadoopHome()}: a stand-in HADOOP_HOME whose {@code bin/hadoop classpath} prints
 *       the client configuration and Hadoop's jars, for the tarball's {@code bin/hare}; the
 *       containers get the same classpath ({@code yarn.application.classpath}).
 * </ul>
 *
 * <p>{@link #killNodeManager} kills an NM with SIGKILL (its containers live on, as on a real
 * host), {@link #crashNode} its containers with it, and {@link #startNodeManager} starts it
 * again; {@link #killResourceManager} and {@link #startResourceManager} do the same to an RM.
 * {@link #close} kills every process it started, including containers orphaned by a killed NM.
 */
final class StandaloneCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StandaloneCluster.class);
  private static final String GPU = ResourceInformation.GPU_URI;
  private static final String RM_CLASS =
      "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager";
  private static final String NM_CLASS =
      "org.apache.hadoop.yarn.server.nodemanager.NodeManager";
  private static final String RM_HOST = "127.0.0.1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long START_TIMEOUT_MS = 240_000;

  /**
   * What a cluster is made of and where its pieces come from.
   *
   * @param nmSettings added to every NodeManager's configuration
   * @param resourceManagers 1, or 2: an HA pair (automatic failover, a ZooKeeper state store)
   */
  record Setup(Path dir, Path hareHome, Path hadoopJars, List<EmbeddedCluster.Node> nodes,
      Path profiles, List<String> jvmFlags, Map<String, String> rmSettings,
      Map<String, String> nmSettings, int resourceManagers) {}

  private final Setup setup;
  private final Map<String, String> rmConf = new LinkedHashMap<>();
  private final Map<String, String> clientConf = new LinkedHashMap<>();
  /** Each RM's web address, host:port. */
  private final String[] rmWebs;
  private final Process[] rms;
  /** The HA pair's ZooKeeper (in this JVM: it is not what is tested); null with one RM. */
  private EmbeddedZooKeeper zk;
  private final Process[] nms;
  /** Containers of killed NodeManagers: they outlive their NM, and close() ends them. */
  private final List<ProcessHandle> orphans = new ArrayList<>();
  private long rmStartMs = -1;

  private StandaloneCluster(Setup setup) {
    this.setup = setup;
    this.nms = new Process[setup.nodes().size()];
    this.rms = new Process[setup.resourceManagers()];
    this.rmWebs = new String[setup.resourceManagers()];
    // a test JVM that ends without close() (a timeout, a killed fork) must not leave daemons
    Runtime.getRuntime().addShutdownHook(new Thread(this::close, "standalone-cluster-close"));
  }

  /**
   * Writes the configuration of every daemon and the stand-in Hadoop, starts the RM and the NMs
   * and waits until the RM lists every NM as RUNNING. Kills what it started if that fails.
   */
  static StandaloneCluster start(Setup setup, long timeoutMs) throws Exception {
    StandaloneCluster c = new StandaloneCluster(setup);
    boolean up = false;
    try {
      c.configure();
      for (int i = 0; i < setup.resourceManagers(); i++) {
        c.startResourceManager(i, timeoutMs);
      }
      long t0 = System.nanoTime();
      for (int i = 0; i < setup.nodes().size(); i++) {
        c.startNodeManager(i);
      }
      c.awaitRunningNodes(setup.nodes().size(), timeoutMs);
      LOG.info("{} NodeManagers RUNNING {} ms after their JVMs started", setup.nodes().size(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      up = true;
      return c;
    } finally {
      if (!up) {
        c.close();
      }
    }
  }

  /**
   * Unpacks the tarball under {@code base} and starts a cluster of {@code nodes} on it and on
   * {@link #hadoopJars}, with the tarball's example profiles and {@code rmSettings} added to the
   * RM's configuration; logs the start times ("figures:").
   */
  static StandaloneCluster install(Path base, List<EmbeddedCluster.Node> nodes,
      Map<String, String> rmSettings) throws Exception {
    return install(base, nodes, rmSettings, Map.of(), 1);
  }

  /**
   * As {@link #install(Path, List, Map)}, with {@code resourceManagers} RMs: 2 makes an HA pair
   * (rm0 and rm1) with automatic failover and a ZooKeeper state store, rm0 started first.
   */
  static StandaloneCluster install(Path base, List<EmbeddedCluster.Node> nodes,
      Map<String, String> rmSettings, int resourceManagers) throws Exception {
    return install(base, nodes, rmSettings, Map.of(), resourceManagers);
  }

  /** As {@link #install(Path, List, Map, int)}, with {@code nmSettings} for every NodeManager. */
  static StandaloneCluster install(Path base, List<EmbeddedCluster.Node> nodes,
      Map<String, String> rmSettings, Map<String, String> nmSettings, int resourceManagers)
      throws Exception {
    Path hareHome = Tarball.unpack(base.resolve("tarball"));
    List<String> flags = new ArrayList<>();
    for (String f : System.getProperty("hare.it.daemon.jvm.flags", "").trim().split("\\s+")) {
      if (!f.isEmpty()) {
        flags.add(f);
      }
    }
    Map<String, String> rm = new LinkedHashMap<>(Map.of("yarn.scheduler.hare.replan-interval-ms",
        "500"));
    rm.putAll(rmSettings);
    StandaloneCluster c = start(new Setup(base.resolve("cluster"), hareHome, hadoopJars(), nodes,
        hareHome.resolve("conf/profiles.csv"), flags, rm, nmSettings, resourceManagers),
        START_TIMEOUT_MS);
    LOG.info("figures: ResourceManager start {} ms (JVM start until its REST API answered"
        + " STARTED), Hadoop {} from {}", c.rmStartMs(), hadoopVersion(), hadoopJars());
    return c;
  }

  /** Hadoop's own jars at Hadoop's versions (pom.xml's hadoop-jars execution). */
  static Path hadoopJars() {
    return Path.of(System.getProperty("hare.it.hadoop.jars", "target/hadoop-jars"))
        .toAbsolutePath();
  }

  private static String hadoopVersion() throws IOException {
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(hadoopJars(),
        "hadoop-common-*.jar")) {
      for (Path j : jars) {
        return j.getFileName().toString().replaceAll("^hadoop-common-|\\.jar$", "");
      }
    }
    return "(no hadoop-common jar)";
  }

  /** Milliseconds from the RM's JVM start until its REST API answered STARTED. */
  long rmStartMs() {
    return rmStartMs;
  }

  /** The stand-in HADOOP_HOME for the tarball's {@code bin/hare}. */
  Path hadoopHome() {
    return setup.dir().resolve("hadoop-home");
  }

  /** The client configuration: RM addresses and the containers' classpath. */
  Configuration clientConf() {
    Configuration c = new Configuration(false);
    clientConf.forEach(c::set);
    return c;
  }

  /** The tarball's {@code bin/hare ARGS}, to run in {@link #hareHome()} with {@link #hareEnv}. */
  List<String> hare(String... args) {
    List<String> cmd = new ArrayList<>(List.of(setup.hareHome().resolve("bin/hare").toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** The environment of a client shell: the stand-in Hadoop and this JVM's Java, nothing else. */
  Map<String, String> hareEnv() {
    return Map.of("PATH", "/usr/bin:/bin", "HADOOP_HOME", hadoopHome().toString(), "JAVA_HOME",
        System.getProperty("java.home"));
  }

  Path hareHome() {
    return setup.hareHome();
  }

  /** The active RM's web address, http://HOST:PORT (rm0's while none is active). */
  String rmWeb() throws IOException {
    int active = activeResourceManager();
    return "http://" + rmWebs[Math.max(active, 0)];
  }

  /**
   * The index of the RM whose REST API says it is active, or -1 while none does; 0 for a
   * single RM.
   */
  int activeResourceManager() throws IOException {
    if (rms.length == 1) {
      return 0;
    }
    for (int i = 0; i < rms.length; i++) {
      if ("ACTIVE".equals(haState(i))) {
        return i;
      }
    }
    return -1;
  }

  /** RM {@code i}'s high-availability state (ACTIVE, STANDBY, ...), or null if it does not answer. */
  String haState(int i) throws IOException {
    JsonNode info = get("http://" + rmWebs[i] + "/ws/v1/cluster/info");
    return info == null ? null : info.path("clusterInfo").path("haState").asText(null);
  }

  /**
   * Starts RM {@code i}'s JVM (again, after a kill) and waits until it serves: as the active
   * RM, or for one of an HA pair, in whichever state the pair gives it.
   */
  void startResourceManager(int i, long timeoutMs) throws Exception {
    long t0 = System.nanoTime();
    String name = rmName(i);
    rms[i] = launch(name, RM_CLASS, setup.dir().resolve("conf-" + name));
    waitFor("ResourceManager " + name + " to start (log: " + log(name) + ")", timeoutMs, () -> {
      JsonNode info = get("http://" + rmWebs[i] + "/ws/v1/cluster/info");
      return info != null && "STARTED".equals(info.path("clusterInfo").path("state").asText())
          && (rms.length > 1 || "ACTIVE".equals(info.path("clusterInfo").path("haState")
              .asText()));
    });
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    if (i == 0) {
      rmStartMs = ms;
    }
    LOG.info("ResourceManager {} started in {} ms", name, ms);
  }

  /** Kills RM {@code i} with SIGKILL, as a crashed RM host: it tells no one. */
  synchronized void killResourceManager(int i) throws InterruptedException {
    rms[i].destroyForcibly();
    rms[i].waitFor();
    LOG.info("ResourceManager {} killed with SIGKILL", rmName(i));
  }

  /** rm (one RM), or rm0 and rm1 (an HA pair): its log and configuration directory's name. */
  private String rmName(int i) {
    return rms.length == 1 ? "rm" : "rm" + i;
  }

  /** Starts NodeManager {@code i}'s JVM, with the ports it had before if it ran before. */
  void startNodeManager(int i) throws IOException {
    nms[i] = launch("nm" + i, NM_CLASS, setup.dir().resolve("conf-nm" + i));
  }

  /**
   * Kills NodeManager {@code i} with SIGKILL, as a crashed NodeManager process dies: it tells
   * the RM nothing, and its containers go on running (they are ended by {@link #close}).
   */
  synchronized void killNodeManager(int i) throws InterruptedException {
    Process nm = nms[i];
    orphans.addAll(nm.descendants().toList());
    nm.destroyForcibly();
    nm.waitFor();
    LOG.info("NodeManager {} ({}) killed with SIGKILL", i, EmbeddedCluster.host(i));
  }

  /**
   * Stops NodeManager {@code i} as an admin does ({@code yarn --daemon stop nodemanager}: SIGTERM)
   * and waits for its JVM to exit. With NodeManager recovery supervised, its containers go on
   * running for the NodeManager started next on the node to take back; {@link #close} ends any
   * left.
   */
  synchronized void stopNodeManager(int i) throws InterruptedException {
    Process nm = nms[i];
    orphans.addAll(nm.descendants().toList());
    nm.destroy();
    if (!nm.waitFor(60, TimeUnit.SECONDS)) {
      nm.destroyForcibly();
      nm.waitFor();
      LOG.warn("NodeManager {} did not stop within 60 s of SIGTERM: killed", i);
    }
    LOG.info("NodeManager {} ({}) stopped with SIGTERM", i, EmbeddedCluster.host(i));
  }

  /**
   * Kills NodeManager {@code i} and every container process it started with SIGKILL, as a
   * crashed host loses them all; the RM hears nothing.
   */
  synchronized void crashNode(int i) throws InterruptedException {
    Process nm = nms[i];
    List<ProcessHandle> containers = nm.descendants().toList();
    nm.destroyForcibly();
    containers.forEach(ProcessHandle::destroyForcibly);
    nm.waitFor();
    containers.forEach(StandaloneCluster::waitQuietly);
    LOG.info("node {} ({}) crashed: its NodeManager and {} container processes killed with"
        + " SIGKILL", i, EmbeddedCluster.host(i), containers.size());
  }

  /** The NodeManagers the RM lists in {@code state}, by host. */
  List<String> nodesIn(String state) throws IOException {
    List<String> hosts = new ArrayList<>();
    JsonNode nodes = rest("/ws/v1/cluster/nodes");
    if (nodes != null) {
      for (JsonNode n : nodes.path("nodes").path("node")) {
        if (state.equals(n.path("state").asText())) {
          hosts.add(n.path("nodeHostName").asText());
        }
      }
    }
    return hosts;
  }

  /** Waits until the RM lists {@code count} NodeManagers as RUNNING. */
  void awaitRunningNodes(int count, long timeoutMs) throws Exception {
    waitFor(count + " NodeManagers RUNNING (logs: " + setup.dir().resolve("logs") + ")",
        timeoutMs, () -> nodesIn("RUNNING").size() == count);
  }

  /** An answer of the active RM's REST API, or null while it does not answer. */
  JsonNode rest(String path) throws IOException {
    return get(rmWeb() + path);
  }

  /** A JSON answer, or null while nobody answers. */
  private static JsonNode get(String url) throws IOException {
    HttpURLConnection http = (HttpURLConnection) new URL(url).openConnection();
    http.setRequestProperty("Accept", "application/json");
    http.setConnectTimeout(5_000);
    http.setReadTimeout(10_000);
    try (InputStream in = http.getInputStream()) {
      return JSON.readTree(in);
    } catch (IOException e) {
      return null; // not up yet, or going down
    } finally {
      http.disconnect();
    }
  }

  Path log(String daemon) {
    return setup.dir().resolve("logs").resolve(daemon + ".log");
  }

  /** How many times NodeManager {@code i} has registered with the RM, by its log. */
  int registrations(int i) throws IOException {
    try (Stream<String> lines = Files.lines(log("nm" + i))) {
      return (int) lines.filter(l -> l.contains("Registered with ResourceManager")).count();
    }
  }

  /** Polls {@code condition} every 250 ms until it holds or {@code timeoutMs} passed. */
  static void waitFor(String what, long timeoutMs, Check condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("waited " + timeoutMs + " ms for " + what);
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
  }

  /** A condition {@link #waitFor} polls; it may throw, which ends the wait. */
  @FunctionalInterface
  interface Check {
    boolean holds() throws Exception;
  }

  /** Kills every process started here (and the containers of killed NMs) and waits for each. */
  @Override
  public synchronized void close() {
    List<Process> daemons = new ArrayList<>(List.of(nms));
    daemons.addAll(List.of(rms));
    for (Process p : daemons) {
      if (p != null) {
        orphans.addAll(p.descendants().toList());
        p.destroyForcibly();
      }
    }
    for (ProcessHandle h : orphans) {
      h.destroyForcibly();
    }
    for (Process p : daemons) {
      if (p != null) {
        waitQuietly(p.toHandle());
      }
    }
    orphans.forEach(StandaloneCluster::waitQuietly);
    if (zk != null) {
      zk.close();
      zk = null;
    }
  }

  private static void waitQuietly(ProcessHandle h) {
    try {
      h.onExit().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("process {} did not end within 30 s: {}", h.pid(), e.toString());
    }
  }

  private Process launch(String name, String mainClass, Path confDir) throws IOException {
    Path logs = Files.createDirectories(setup.dir().resolve("logs"));
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.addAll(setup.jvmFlags());
    cmd.add("-Djava.io.tmpdir=" + Files.createDirectories(setup.dir().resolve("tmp")));
    cmd.add("-Dhadoop.log.dir=" + logs);
    cmd.add("-cp");
    // as the README has it: the daemon's configuration, Hadoop's jars, then the tarball's lib/
    cmd.add(confDir + File.pathSeparator + setup.hadoopJars() + "/*" + File.pathSeparator
        + setup.hareHome().resolve("lib") + "/*");
    cmd.add(mainClass);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile()));
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process p = pb.start();
    LOG.info("started {} (pid {}): {}", name, p.pid(), String.join(" ", cmd));
    return p;
  }

  /** Ports, configuration directories and the stand-in Hadoop, in a fresh {@code dir}. */
  private void configure() throws IOException, InterruptedException {
    Path dir = setup.dir();
    // a last run's state store would have the RM recover that run's applications
    FileUtil.fullyDelete(dir.toFile());
    Path clientConfDir = Files.createDirectories(dir.resolve("hadoop-home/etc/hadoop"));
    String appClasspath = clientConfDir + "," + setup.hadoopJars() + "/*";

    List<String> addressKeys = List.of(YarnConfiguration.RM_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_ADDRESS, YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
        YarnConfiguration.RM_ADMIN_ADDRESS, YarnConfiguration.RM_WEBAPP_ADDRESS);
    if (rms.length == 1) {
      for (String key : addressKeys) {
        rmConf.put(key, RM_HOST + ":" + FreePorts.next());
      }
      rmWebs[0] = rmConf.get(YarnConfiguration.RM_WEBAPP_ADDRESS);
    } else {
      // as an admin sets up RM HA: every RM's addresses by its id, for RMs, NMs and clients
      zk = EmbeddedZooKeeper.start(dir.resolve("zookeeper").toFile());
      rmConf.put(YarnConfiguration.RM_HA_ENABLED, "true");
      rmConf.put(YarnConfiguration.RM_HA_IDS, "rm0,rm1");
      for (int i = 0; i < rms.length; i++) {
        for (String key : addressKeys) {
          rmConf.put(HAUtil.addSuffix(key, "rm" + i), RM_HOST + ":" + FreePorts.next());
        }
        rmWebs[i] = rmConf.get(HAUtil.addSuffix(YarnConfiguration.RM_WEBAPP_ADDRESS, "rm" + i));
      }
      // NMs, AMs and clients try the other RM within a second, not after the 30 s default
      rmConf.put(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_BASE_MS, "200");
      rmConf.put(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_MAX_MS, "1000");
      rmConf.put(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "500");
    }
    rmConf.put(YarnConfiguration.RESOURCE_TYPES, GPU);
    rmConf.put(YarnConfiguration.YARN_APPLICATION_CLASSPATH, appClasspath);
    rmConf.put("hadoop.tmp.dir", dir.resolve("tmp").toString());
    clientConf.putAll(rmConf);
    if (zk != null) {
      // the RMs' alone: NodeManagers and clients never talk to ZooKeeper
      rmConf.put(YarnConfiguration.RM_CLUSTER_ID, "hare-it");
      rmConf.putAll(zk.clientSettings());
    }

    rmConf.put(YarnConfiguration.RM_SCHEDULER, "io.hare.yarn.scheduler.HareScheduler");
    rmConf.put(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, "128");
    rmConf.put(YarnConfiguration.RECOVERY_ENABLED, "true");
    if (rms.length == 1) {
      rmConf.put(YarnConfiguration.RM_STORE,
          "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
      rmConf.put(YarnConfiguration.FS_RM_STATE_STORE_URI, dir.resolve("rm-state").toUri()
          .toString());
    } else {
      rmConf.put(YarnConfiguration.RM_STORE,
          "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore");
    }
    rmConf.put(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        dir.resolve("node-attributes").toUri().toString());
    rmConf.put("yarn.scheduler.hare.profiles.file", setup.profiles().toString());
    StringBuilder mapping = new StringBuilder("# host GPU-type, as conf/gpu-models.txt\n");
    for (int i = 0; i < setup.nodes().size(); i++) {
      mapping.append(EmbeddedCluster.host(i)).append(' ')
          .append(setup.nodes().get(i).gpuType()).append('\n');
    }
    Path mappingFile = dir.resolve("gpu-models.txt");
    Files.writeString(mappingFile, mapping, StandardCharsets.UTF_8);
    rmConf.put("yarn.scheduler.hare.gpu-type.mapping-file", mappingFile.toString());
    rmConf.putAll(setup.rmSettings());
    for (int i = 0; i < rms.length; i++) {
      Map<String, String> own = new LinkedHashMap<>(rmConf);
      if (rms.length > 1) {
        // both RMs are on one host, so neither can find its id by its addresses
        own.put(YarnConfiguration.RM_HA_ID, "rm" + i);
      }
      writeConf(dir.resolve("conf-" + rmName(i)), own);
    }
    writeConf(clientConfDir, clientConf);

    for (int i = 0; i < setup.nodes().size(); i++) {
      String host = EmbeddedCluster.host(i);
      Path nm = dir.resolve("nm" + i);
      Map<String, String> c = new LinkedHashMap<>(clientConf);
      c.put(YarnConfiguration.NM_PREFIX + "hostname", host);
      c.put(YarnConfiguration.NM_ADDRESS, host + ":" + FreePorts.next());
      c.put(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":" + FreePorts.next());
      c.put(YarnConfiguration.NM_WEBAPP_ADDRESS, host + ":" + FreePorts.next());
      c.put(YarnConfiguration.NM_LOCAL_DIRS, nm.resolve("local").toString());
      c.put(YarnConfiguration.NM_LOG_DIRS, nm.resolve("logs").toString());
      c.put(YarnConfiguration.NM_PMEM_MB, Integer.toString(EmbeddedCluster.NM_MEMORY_MB));
      c.put(YarnConfiguration.NM_VCORES, Integer.toString(EmbeddedCluster.NM_VCORES));
      c.put(YarnConfiguration.NM_RESOURCES_PREFIX + GPU,
          Integer.toString(setup.nodes().get(i).gpus()));
      c.put(YarnConfiguration.NM_PMEM_CHECK_ENABLED, "false");
      c.put(YarnConfiguration.NM_VMEM_CHECK_ENABLED, "false");
      c.put(YarnConfiguration.NM_AUX_SERVICES, "");
      c.put(YarnConfiguration.NM_ADMIN_USER_ENV, "JAVA_HOME=" + System.getProperty("java.home"));
      // a nearly full disk of a build machine must not make the node UNHEALTHY
      c.put(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, "100");
      c.put(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, "0");
      c.put(YarnConfiguration.NM_LOG_RETAIN_SECONDS, "0");
      c.put(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, "600");
      c.put("hadoop.tmp.dir", nm.resolve("tmp").toString());
      c.putAll(setup.nmSettings());
      writeConf(dir.resolve("conf-nm" + i), c);
    }

    Path hadoop = Files.createDirectories(hadoopHome().resolve("bin")).resolve("hadoop");
    Files.writeString(hadoop, "#!/bin/sh\n# stand-in: only `hadoop classpath`\n"
        + "[ \"$1\" = classpath ] || exit 1\necho '" + clientConfDir + ":" + setup.hadoopJars()
        + "/*'\n", StandardCharsets.UTF_8);
    if (!hadoop.toFile().setExecutable(true)) {
      throw new IOException("cannot make " + hadoop + " executable");
    }
  }

  /** yarn-site.xml and a log4j.properties (INFO to the console, i.e. the daemon's log file). */
  private static void writeConf(Path dir, Map<String, String> settings) throws IOException {
    Files.createDirectories(dir);
    Configuration c = new Configuration(false);
    settings.forEach(c::set);
    try (OutputStream out = Files.newOutputStream(dir.resolve("yarn-site.xml"))) {
      c.writeXml(out);
    }
    Files.writeString(dir.resolve("log4j.properties"), "log4j.rootLogger=INFO, console\n"
        + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
        + "log4j.appender.console.layout.ConversionPattern="
        + "%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %c{1}: %m%n\n"
        // the scheduler's placement decisions, to tell why a job waits
        + "log4j.logger.io.hare.yarn.scheduler=DEBUG\n",
        StandardCharsets.UTF_8);
  }
}
