package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.plan.OrTools;
import io.hare.core.policy.hare.HareKeys;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MockRM running the Hare scheduler with {@code yarn.io/gpu} declared, and the few steps the
 * scheduler tests repeat: GPU nodes, GPU types as centralized node attributes, tagged
 * applications, one-GPU task asks, finishing tasks.
 *
 * <p>One at a time per JVM: the scheduler's metrics source has one name in YARN's metrics
 * system. This class keeps every RM it made until it is stopped, so an RM whose start never
 * returned to its test (a timeout abandons the test's thread, and {@code @After} sees no RM) is
 * stopped by the next {@link #start}, before its metrics source can clash with the next RM's.
 */
final class HareRm implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HareRm.class);

  static final String GPU = ResourceInformation.GPU_URI;

  /** The RMs made here and not stopped yet; guarded by {@code HareRm.class}. */
  private static final Set<MockRM> UNSTOPPED = new LinkedHashSet<>();

  final MockRM rm;

  private HareRm(MockRM rm) {
    this.rm = rm;
  }

  /**
   * Test configuration: Hare, GPUs declared, re-plans whenever asked, node attributes in a
   * directory of this configuration's own under target/ (an RM restarted with the same
   * configuration finds them; another test's RM, in this fork or a parallel one, does not).
   */
  static YarnConfiguration conf() {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, SameThreadHareScheduler.class,
        ResourceScheduler.class);
    conf.set(YarnConfiguration.RESOURCE_TYPES, GPU);
    conf.setLong(SchedulerKeys.REPLAN_INTERVAL_MS, 0);
    // MockNMs heartbeat only when a test says so, and a test places on one node at another's
    // heartbeat: no node falls silent unless a test sets a grace of its own (NodeLivenessTest)
    conf.setLong(SchedulerKeys.NODE_LIVENESS_GRACE_MS, 24L * 3600 * 1000);
    conf.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        GenericTestUtils.getRandomizedTestDir().toURI().toString());
    return conf;
  }

  /**
   * The conf with exact plans off ({@code HareKeys.EXACT_MAX_TASKS} 0), for a test whose scenario
   * is set up by priority dispatch's order: on a node this small the default would follow an
   * exact plan, which may give the GPUs in another order.
   */
  static YarnConfiguration priorityDispatch(YarnConfiguration conf) {
    conf.setInt(HareKeys.EXACT_MAX_TASKS, 0);
    return conf;
  }

  /**
   * {@link #conf()} with standbys on or off; with a lead of a day, any running task is about to
   * end.
   */
  static YarnConfiguration standbysAhead(boolean on) {
    YarnConfiguration conf = conf();
    conf.setBoolean(SchedulerKeys.STANDBY_ENABLED, on);
    conf.setLong(SchedulerKeys.STANDBY_LEAD_MS, 86_400_000L);
    return conf;
  }

  /**
   * Loads what every first test of a JVM would otherwise load under its timeout: OR-Tools'
   * native libraries (extracted from their jar, seconds on a loaded machine). For
   * {@code @BeforeClass}.
   */
  static void warmUp() {
    OrTools.load();
  }

  /**
   * A started RM. An RM of an earlier test still running is stopped first; if this one fails to
   * start, it is stopped before the exception leaves.
   */
  static synchronized HareRm start(YarnConfiguration conf) {
    for (MockRM left : new ArrayList<>(UNSTOPPED)) {
      LOG.warn("stopping an RM an earlier test left running (its start outlived the test?)");
      stop(left);
    }
    ResourceUtils.resetResourceTypes(conf);
    MockRM rm = new MockRM(conf); // inits it: the scheduler registers its metrics here
    UNSTOPPED.add(rm);
    try {
      rm.start();
    } catch (RuntimeException | Error e) {
      stop(rm);
      throw e;
    }
    return new HareRm(rm);
  }

  private static synchronized void stop(MockRM rm) {
    UNSTOPPED.remove(rm);
    rm.stop();
  }

  HareScheduler scheduler() {
    return (HareScheduler) rm.getResourceScheduler();
  }

  /** The scheduler's clock from now on: YARN's ControlledClock, at the time it had. */
  ControlledClock controlledClock() {
    ControlledClock clock = new ControlledClock();
    clock.setTime(scheduler().getClock().getTime());
    scheduler().setClock(clock);
    return clock;
  }

  static Resource resource(long memoryMb, int vcores, long gpus) {
    return Resource.newInstance(memoryMb, vcores, Map.of(GPU, gpus));
  }

  MockNM node(String id, int gpus) throws Exception {
    // container tokens resolve the node's host; test hosts are made-up names
    NetUtils.addStaticResolution(id.substring(0, id.indexOf(':')), "127.0.0.1");
    return rm.registerNode(id, resource(16 * 1024, 16, gpus));
  }

  /** Sets the GPU-model attribute of a host, centrally (rm.yarn.io), as an admin would. */
  void setType(String host, String type) throws Exception {
    NodeAttribute a = NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED,
        SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE, NodeAttributeType.STRING, type);
    rm.getRMContext().getNodeAttributesManager().replaceNodeAttributes(
        NodeAttribute.PREFIX_CENTRALIZED, Map.of(host, Set.of(a)));
    rm.drainEvents();
  }

  /** The tag with which the Hare client declares that its AM speaks the Hare protocol. */
  static final String HARE_AM = JobTags.PROTOCOL + "=" + JobTags.PROTOCOL_VERSION;

  /** An application of an AM that speaks the Hare protocol, with {@code tags} besides. */
  RMApp submitHare(String... tags) throws Exception {
    Set<String> all = new HashSet<>(Set.of(tags));
    all.add(HARE_AM);
    return submit(all.toArray(new String[0]));
  }

  /** A Hare AM's application in {@code queue}. */
  RMApp submitHareTo(String queue, String... tags) throws Exception {
    Set<String> all = new HashSet<>(Set.of(tags));
    all.add(HARE_AM);
    return MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, rm).withQueue(queue).withApplicationTags(all).build());
  }

  RMApp submit(String... tags) throws Exception {
    return MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, rm).withApplicationTags(Set.of(tags)).build());
  }

  MockAM launch(RMApp app, MockNM nm) throws Exception {
    return MockRM.launchAndRegisterAM(app, rm, nm);
  }

  /** Asks for {@code n} one-GPU task containers. */
  static void askGpuTasks(MockAM am, int n) throws Exception {
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(1), ResourceRequest.ANY,
        resource(1024, 1, 1), n)), List.of());
  }

  /** Kicks scheduling with heartbeats of {@code nms}, then pulls what {@code am} got. */
  List<Container> heartbeatAndPull(MockAM am, MockNM... nms) throws Exception {
    for (MockNM nm : nms) {
      nm.nodeHeartbeat(true);
    }
    rm.drainEvents();
    return new ArrayList<>(am.allocate(List.of(), List.of()).getAllocatedContainers());
  }

  /**
   * Kicks scheduling with heartbeats of {@code nm} until {@code am} got {@code n} containers in
   * all, for an RM whose re-plans run on their own thread: a pass that meets one in flight places
   * nothing, the next one does.
   */
  List<Container> heartbeatUntil(MockAM am, int n, MockNM nm) throws Exception {
    List<Container> got = new ArrayList<>();
    GenericTestUtils.waitFor(() -> {
      try {
        got.addAll(heartbeatAndPull(am, nm));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      return got.size() >= n;
    }, 20, 120_000);
    return got;
  }

  /** The NM reports the container finished with exit status 0. */
  void finish(MockNM nm, Container c) throws Exception {
    end(nm, c, 0);
  }

  /** The NM reports the container ended with {@code exitStatus}. */
  void end(MockNM nm, Container c, int exitStatus) throws Exception {
    ContainerId id = c.getId();
    nm.nodeHeartbeat(List.of(BuilderUtils.newContainerStatus(id, ContainerState.COMPLETE,
        "exit " + exitStatus, exitStatus, c.getResource())), true);
    rm.drainEvents();
  }

  static long gpus(Container c) {
    return c.getResource().getResourceValue(GPU);
  }

  @Override
  public void close() {
    stop(rm);
  }
}
