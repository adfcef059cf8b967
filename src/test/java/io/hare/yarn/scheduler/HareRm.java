package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import java.util.ArrayList;
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

/**
 * A MockRM running the Hare scheduler with {@code yarn.io/gpu} declared, and the few steps the
 * scheduler tests repeat: GPU nodes, GPU types as centralized node attributes, tagged
 * applications, one-GPU task asks, finishing tasks.
 */
final class HareRm implements AutoCloseable {

  static final String GPU = ResourceInformation.GPU_URI;

  final MockRM rm;

  private HareRm(MockRM rm) {
    this.rm = rm;
  }

  /** Test configuration: Hare, GPUs declared, re-plans whenever asked, attributes under target/. */
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
        "file://" + GenericTestUtils.getTestDir("node-attributes").getAbsolutePath());
    return conf;
  }

  static HareRm start(YarnConfiguration conf) {
    ResourceUtils.resetResourceTypes(conf);
    MockRM rm = new MockRM(conf);
    rm.start();
    return new HareRm(rm);
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
    rm.stop();
  }
}
