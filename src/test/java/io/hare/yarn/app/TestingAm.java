package io.hare.yarn.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
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

  /** Every port call, in order: "add", "remove", "release N", "start N", "sync R". */
  final List<String> calls = new ArrayList<>();
  /** Allocation request ids of the asks the AM has added and not removed, in order. */
  final List<Long> asked = new ArrayList<>();
  /** Environment of each started container, by container number. */
  final Map<Long, Map<String, String>> started = new LinkedHashMap<>();
  final Map<Integer, IntConsumer> syncs = new LinkedHashMap<>();
  int checkpointed;
  long nextContainer = 1;
  final RoundProtocol protocol;

  static void declareGpus() {
    Configuration c = new Configuration(false);
    c.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    ResourceUtils.resetResourceTypes(c);
  }

  TestingAm(HareJobSpec spec, int checkpointAt) {
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
    };
    ContainerLauncher launcher = (Container c, ContainerLaunchContext ctx) -> {
      calls.add("start " + c.getId().getContainerId());
      started.put(c.getId().getContainerId(), ctx.getEnvironment());
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
        new TaskLaunch(spec, Map.of(), null), asks, launcher, sync, checkpoint, types);
  }

  /**
   * {@code n} new containers on {@code host}, as YARN allocates them: each for one of the
   * outstanding asks, oldest first; beyond those, surplus containers for no ask (id 0).
   */
  List<Container> allocate(String host, int n) {
    List<Container> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ContainerId id = ContainerId.newContainerId(ATTEMPT, nextContainer++);
      Resource r = Resource.newInstance(2048, 1);
      Container c = Container.newInstance(id, NodeId.newInstance(host, 8041), host + ":8042", r,
          TaskLaunch.PRIORITY, null);
      c.setAllocationRequestId(i < asked.size() ? asked.get(i) : 0);
      out.add(c);
    }
    protocol.onContainersAllocated(out);
    return out;
  }

  void complete(long container, int exit) {
    ContainerId id = ContainerId.newContainerId(ATTEMPT, container);
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
