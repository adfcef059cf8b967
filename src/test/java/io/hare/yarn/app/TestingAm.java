package io.hare.yarn.app;

import io.hare.yarn.GpuDevices;
import io.hare.yarn.JobTags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * Scripted doubles of the AM's ports, recording every call in order, plus a {@link RoundProtocol}
 * wired to them. Tests hand out containers, complete them and finish sync steps by hand.
 */
final class TestingAm {

  static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1700000000000L, 7), 1);

  /**
   * Every port call, in order: "add", "remove", "release N", "start N", "update N" (a new
   * resource for the NodeManager), "task started in N", "park N", "sync R", "blacklist +HOST"
   * and "blacklist -HOST".
   */
  final List<String> calls = new ArrayList<>();
  /** What the AM's heartbeat was told, in order: true while a standby waits for its GPU. */
  final List<Boolean> polling = new ArrayList<>();
  /** Allocation request ids of the asks the AM has added and not removed, in order. */
  final List<Long> asked = new ArrayList<>();
  /** Environment of each started container, by container number. */
  final Map<Long, Map<String, String>> started = new LinkedHashMap<>();
  final Map<Integer, IntConsumer> syncs = new LinkedHashMap<>();
  int checkpointed;
  /** The protocol's clock, moved by hand. */
  long nowMs;
  long nextContainer = 1;
  /** Whether the containers handed out carry the scheduler's parkable allocation tag. */
  boolean parkable;
  /** The AM's token generation, raised by hand to stand for a refresh. */
  long tokenGeneration;
  /** The tokens of each started container, by container number (null: none). */
  final Map<Long, java.nio.ByteBuffer> startedTokens = new LinkedHashMap<>();
  /** The device the scheduler names on GPU containers handed out; -1: none (YARN's). */
  int device = -1;
  final RoundProtocol protocol;

  static void declareGpus() {
    Configuration c = new Configuration(false);
    c.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    ResourceUtils.resetResourceTypes(c);
  }

  TestingAm(HareJobSpec spec, int checkpointAt) {
    this(spec, checkpointAt, false);
  }

  /**
   * A started AM of {@code rounds} rounds of {@code k} tasks with warm containers, handed out
   * parkable (then one failure ends the job).
   */
  static TestingAm warmParkable(int rounds, int k) throws Exception {
    TestingAm am = new TestingAm(RoundProtocolTest.spec(rounds, k, 1, true), 0, true);
    am.parkable = true;
    am.protocol.start();
    return am;
  }

  /** @param warm whether containers run task runners (a runner server the AM never opens) */
  TestingAm(HareJobSpec spec, int checkpointAt, boolean warm) {
    this.checkpointed = checkpointAt;
    ContainerAsks asks = new ContainerAsks() {
      @Override
      public void addContainerRequest(ContainerRequest r) {
        calls.add("add");
        asked.add(r.getAllocationRequestId());
      }

      @Override
      public void removeContainerRequest(ContainerRequest r) {
        calls.add("remove");
        asked.remove(Long.valueOf(r.getAllocationRequestId()));
      }

      @Override
      public void releaseAssignedContainer(ContainerId id) {
        calls.add("release " + id.getContainerId());
      }

      @Override
      public void reportTaskStarted(Container c) {
        calls.add("task started in " + c.getId().getContainerId());
      }

      @Override
      public void reportParked(Container c) {
        calls.add("park " + c.getId().getContainerId());
      }

      @Override
      public void awaitingGpu(boolean waiting) {
        polling.add(waiting);
      }

      @Override
      public void updateBlacklist(List<String> additions, List<String> removals) {
        additions.removeAll(removals); // as YARN's AMRMClientImpl does: additions must be mutable
        additions.forEach(h -> calls.add("blacklist +" + h));
        removals.forEach(h -> calls.add("blacklist -" + h));
      }
    };
    ContainerLauncher launcher = new ContainerLauncher() {
      @Override
      public void startContainer(Container c, ContainerLaunchContext ctx) {
        calls.add("start " + c.getId().getContainerId());
        started.put(c.getId().getContainerId(), ctx.getEnvironment());
        startedTokens.put(c.getId().getContainerId(), ctx.getTokens());
      }

      @Override
      public void updateResource(Container c) {
        calls.add("update " + c.getId().getContainerId() + " to " + gpus(c) + " GPU");
      }
    };
    SyncStep sync = new SyncStep() {
      @Override
      public void start(int round, IntConsumer onExit) {
        calls.add("sync " + round);
        syncs.put(round, onExit);
      }

      @Override
      public String logLocation(int round) {
        return "sync-round-" + round + ".log";
      }
    };
    RoundCheckpoint checkpoint = new RoundCheckpoint() {
      @Override
      public int roundsDone() {
        return checkpointed;
      }

      @Override
      public void save(int roundsDone) {
        calls.add("checkpoint " + roundsDone);
        checkpointed = roundsDone;
      }
    };
    GpuTypes types = node -> node.getHost().startsWith("v100") ? "v100" : "t4";
    protocol = new RoundProtocol(spec, ATTEMPT.getApplicationId().toString(), "/work/job",
        new TaskLaunch(spec, Map.of(), null, "",
            warm ? new TaskLaunch.Channel("am", 1, new ChannelKeys()) : null),
        asks, launcher, sync, checkpoint, types, () -> nowMs, () -> tokenGeneration);
  }

  static long gpus(Container c) {
    return c.getResource().getResourceValue(ResourceInformation.GPU_URI);
  }

  static ContainerId id(long container) {
    return ContainerId.newContainerId(ATTEMPT, container);
  }

  private Container container(String host, long gpus) {
    Resource r = Resource.newInstance(2048, 1);
    r.setResourceValue(ResourceInformation.GPU_URI, gpus);
    Container c = Container.newInstance(id(nextContainer++), NodeId.newInstance(host, 8041),
        host + ":8042", r, TaskLaunch.PRIORITY, null);
    Set<String> tags = new HashSet<>();
    if (parkable) {
      tags.add(JobTags.PARKABLE);
    }
    if (device >= 0 && gpus > 0) {
      tags.add(GpuDevices.tag(device));
    }
    c.setAllocationTags(tags);
    return c;
  }

  /** A standby container on {@code host}, as the scheduler pre-launches one: no GPU, no ask. */
  Container standby(String host) {
    Container c = container(host, 0);
    c.setAllocationRequestId(0);
    protocol.onContainersAllocated(List.of(c));
    return c;
  }

  /**
   * The scheduler promotes {@code standby}: the same container with one GPU, a new version,
   * under the allocation request id of the ask it consumed.
   */
  Container promote(Container standby, long allocationRequestId) {
    Container c = resized(standby, 1, allocationRequestId);
    if (device >= 0) {
      c.setAllocationTags(GpuDevices.withDevice(c.getAllocationTags(), device));
    }
    protocol.onContainersUpdated(List.of(
        UpdatedContainer.newInstance(ContainerUpdateType.INCREASE_RESOURCE, c)));
    return c;
  }

  /** The scheduler parks {@code c}: the same container without its GPU, a new version. */
  Container parked(Container c) {
    Container p = resized(c, 0, c.getAllocationRequestId());
    protocol.onContainersUpdated(List.of(
        UpdatedContainer.newInstance(ContainerUpdateType.DECREASE_RESOURCE, p)));
    return p;
  }

  private static Container resized(Container c, long gpus, long allocationRequestId) {
    Resource r = Resource.newInstance(c.getResource().getMemorySize(),
        c.getResource().getVirtualCores());
    r.setResourceValue(ResourceInformation.GPU_URI, gpus);
    Container out = Container.newInstance(c.getId(), c.getNodeId(), c.getNodeHttpAddress(), r,
        c.getPriority(), null);
    out.setVersion(c.getVersion() + 1);
    out.setAllocationRequestId(allocationRequestId);
    out.setAllocationTags(c.getAllocationTags());
    return out;
  }

  /**
   * {@code n} new containers on {@code host}, as YARN allocates them: each for one of the
   * outstanding asks, oldest first; beyond those, surplus containers for no ask (id 0).
   */
  List<Container> allocate(String host, int n) {
    List<Container> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Container c = container(host, 1);
      c.setAllocationRequestId(i < asked.size() ? asked.get(i) : 0);
      out.add(c);
    }
    protocol.onContainersAllocated(out);
    return out;
  }

  void complete(long container, int exit) {
    ContainerId id = id(container);
    protocol.onContainersCompleted(List.of(ContainerStatus.newInstance(id,
        ContainerState.COMPLETE, exit == 0 ? "" : "task said no", exit)));
  }

  void completeAll(List<Container> cs) {
    cs.forEach(c -> complete(c.getId().getContainerId(), ContainerExitStatus.SUCCESS));
  }

  /** Calls since the last take, then forgets them. */
  List<String> take() {
    List<String> out = List.copyOf(calls);
    calls.clear();
    return out;
  }
}
