package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.SchedulerKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.ExecutionType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceBlacklistRequest;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.AsyncDispatcher;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.junit.Test;
import org.slf4j.LoggerFactory;

/**
 * Random allocate calls from one application, the inputs an AM controls (ask counts, sizes,
 * priorities, locality, request ids, execution types, releases, blacklists, container updates,
 * scheduling requests, some of them another application's containers), interleaved with node
 * heartbeats, container ends, stray container reports and an admin's node resizes, beside an
 * honest Hare job. Whatever the calls, YARN's or Hare's refusal is the only exception an AM
 * gets, no event handler of the RM throws, no node is given more than it has, the honest job
 * runs every round, and once the random application is killed every GPU it held is free again.
 * Each seed is one reproducible run; a failure names it.
 */
public class AllocateFuzzTest extends MockRmTestCase {

  private static final int SEEDS = 16;
  private static final int STEPS = 80;
  private static final int ROUNDS = 3;
  private static final int TASKS = 2;
  private static final int NODE_GPUS = 2;

  /** Containers the random calls were given, and calls refused, over all seeds. */
  private int given;
  private int refused;
  /** Nodes an admin cut below what ran there, and what they held since. */
  private final Map<NodeId, Resource> overcommitted = new HashMap<>();

  @Test(timeout = 300_000)
  public void randomAllocateCallsHurtNeitherTheRmNorAnHonestJob() throws Exception {
    GenericTestUtils.LogCapturer dispatcher = GenericTestUtils.LogCapturer.captureLogs(
        LoggerFactory.getLogger(AsyncDispatcher.class));
    try {
      for (long seed = 1; seed <= SEEDS; seed++) {
        YarnConfiguration conf = HareRm.conf();
        conf.set(SchedulerKeys.POLICY, seed % 3 == 0 ? "yarn-fifo" : "hare");
        h = HareRm.start(conf);
        try {
          run(seed, seed % 2 == 0);
        } catch (AssertionError | Exception e) {
          throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
        String log = dispatcher.getOutput();
        int error = log.indexOf("Error in dispatcher thread");
        assertTrue("seed " + seed + ": an RM event handler threw:\n"
            + log.substring(Math.max(0, error), Math.min(log.length(), error + 3000)), error < 0);
        h.close();
        h = null;
      }
    } finally {
      dispatcher.stopCapturing();
    }
    // calls that were all refused would test YARN's validation, not the scheduler
    assertTrue("the random calls reached the scheduler: " + given + " containers given, "
        + refused + " calls refused", given >= SEEDS && refused >= SEEDS);
  }

  private void run(long seed, boolean fuzzSpeaksHare) throws Exception {
    overcommitted.clear();
    Random random = new Random(seed);
    MockNM n1 = h.node("h1:1234", NODE_GPUS);
    MockNM n2 = h.node("h2:1234", NODE_GPUS);
    MockNM[] nodes = {n1, n2};
    RMApp honestApp = h.submitHare("hare.rounds=" + ROUNDS, "hare.tasks-per-round=" + TASKS);
    MockAM honest = h.launch(honestApp, n1);
    RMApp fuzzApp = fuzzSpeaksHare ? h.submitHare() : h.submit();
    MockAM fuzz = h.launch(fuzzApp, n2);
    Honest job = new Honest(honest);
    List<Container> fuzzHeld = new ArrayList<>();
    for (int step = 0; step < STEPS; step++) {
      switch (random.nextInt(10)) {
        case 0, 1, 2, 3 -> fuzzHeld.addAll(randomAllocate(random, fuzz, fuzzHeld, job.running));
        case 4 -> resize(random, pick(random, nodes));
        case 5 -> strayStatus(random, nodes, fuzzHeld, job.running);
        case 6 -> {
          if (!fuzzHeld.isEmpty()) {
            Container c = fuzzHeld.remove(random.nextInt(fuzzHeld.size()));
            h.end(nodeOf(c, nodes), c, random.nextBoolean() ? 0 : 1);
          }
        }
        default -> {
          for (MockNM nm : nodes) {
            nm.nodeHeartbeat(true);
          }
          h.rm.drainEvents();
        }
      }
      job.step(nodes);
      assertNodesWithinCapacity();
    }
    for (MockNM nm : nodes) {
      setNodeResource(nm, HareRm.resource(16 * 1024, 16, NODE_GPUS), -1);
    }
    h.rm.killApp(fuzzApp.getApplicationId());
    h.rm.waitForState(fuzzApp.getApplicationId(), RMAppState.KILLED);
    h.rm.drainEvents();
    // YARN frees a container its node saw start only when the node reports it ended; the
    // NodeManagers end what runs of the killed application, as the RM tells them to
    for (MockNM nm : nodes) {
      List<ContainerStatus> ended = h.scheduler().getSchedulerNode(nm.getNodeId())
          .getCopiedListOfRunningContainers().stream()
          .filter(c -> c.getApplicationAttemptId().getApplicationId()
              .equals(fuzzApp.getApplicationId()))
          .map(c -> BuilderUtils.newContainerStatus(c.getContainerId(), ContainerState.COMPLETE,
              "killed", ContainerExitStatus.KILLED_BY_RESOURCEMANAGER, c.getAllocatedResource()))
          .toList();
      nm.nodeHeartbeat(ended, true);
    }
    h.rm.drainEvents();
    for (int i = 0; i < 200 && !job.done(); i++) {
      job.step(nodes);
      assertNodesWithinCapacity();
    }
    assertTrue("the honest job ran " + job.round + " of " + ROUNDS + " rounds", job.done());
    for (MockNM nm : nodes) {
      nm.nodeHeartbeat(true);
    }
    h.rm.drainEvents();
    for (MockNM nm : nodes) {
      SchedulerNode node = h.scheduler().getSchedulerNode(nm.getNodeId());
      assertEquals(nm.getNodeId() + ": every GPU free once both jobs are done (held: "
          + node.getAllocatedResource() + " by " + node.getCopiedListOfRunningContainers().stream()
              .map(c -> c.getContainerId() + " " + c.getState() + " "
                  + c.getAllocatedResource()).toList() + ")", NODE_GPUS,
          node.getUnallocatedResource().getResourceValue(HareRm.GPU));
    }
  }

  /** One allocate call of random content; returns the containers it was given. */
  private List<Container> randomAllocate(Random r, MockAM am, List<Container> own,
      List<Container> others) throws Exception {
    List<ResourceRequest> asks = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      // what an AM would ask, and one time in three a field or two at an edge: an ask with many
      // edges is refused for the first, so single edges reach the scheduler more often
      ResourceRequest ask = ResourceRequest.newInstance(Priority.newInstance(1 + r.nextInt(3)),
          ResourceRequest.ANY, HareRm.resource(1024L * (1 + r.nextInt(2)), 1 + r.nextInt(2),
              r.nextInt(3)), r.nextInt(4), true);
      ask.setAllocationRequestId(r.nextInt(3));
      for (int edges = r.nextInt(3) == 0 ? 1 + r.nextInt(2) : 0; edges > 0; edges--) {
        edge(r, ask);
      }
      asks.add(ask);
    }
    List<ContainerId> release = new ArrayList<>();
    if (r.nextInt(4) == 0) {
      release.add(someContainer(r, own, others));
    }
    ResourceBlacklistRequest blacklist = r.nextInt(5) > 0 ? null
        : ResourceBlacklistRequest.newInstance(
            List.of(pick(r, "h1", "h2", "no-such-host", ResourceRequest.ANY)),
            r.nextBoolean() ? List.of() : List.of(pick(r, "h1", "h2")));
    List<UpdateContainerRequest> updates = new ArrayList<>();
    if (r.nextInt(5) == 0) {
      updates.add(UpdateContainerRequest.newInstance(r.nextInt(3) - 1,
          someContainer(r, own, others), pick(r, ContainerUpdateType.values()),
          randomResource(r), pick(r, ExecutionType.values())));
    }
    AllocateRequest request = AllocateRequest.newBuilder().askList(asks)
        .releaseList(release).resourceBlacklistRequest(blacklist)
        .updateRequests(updates).build();
    if (r.nextInt(12) == 0) {
      request.setSchedulingRequests(List.of(SchedulingRequest.newInstance(1L,
          Priority.newInstance(1), ExecutionTypeRequest.newInstance(), null, null, null)));
    }
    try {
      List<Container> got = new ArrayList<>(am.allocate(request).getAllocatedContainers());
      for (Container c : got) {
        assertTrue(c + " is not the random application's",
            c.getId().getApplicationAttemptId().equals(am.getApplicationAttemptId()));
      }
      given += got.size();
      return got;
    } catch (YarnException | YarnRuntimeException e) {
      // YARN's validation or Hare's refusal: the AM is told what is wrong, nothing else happens
      refused++;
      return List.of();
    } catch (Exception other) {
      fail("allocate " + request + " threw something other than a refusal: " + other);
      return List.of();
    }
  }

  /** Sets one field of {@code ask} to a value at an edge of what YARN or Hare accepts. */
  private static void edge(Random r, ResourceRequest ask) {
    Resource c = ask.getCapability();
    switch (r.nextInt(12)) { // counts three times as often: huge asks stopped an RM once
      case 0 -> ask.setPriority(Priority.newInstance(pickInt(r, -1, 0, Integer.MAX_VALUE)));
      case 1 -> ask.setResourceName(pick(r, "h1", "h2", "/default-rack", "no-such-host", ""));
      case 2 -> c.setMemorySize(pick(r, -1L, 0L, 16L * 1024 + 1, Long.MAX_VALUE));
      case 3 -> c.setVirtualCores(pickInt(r, -1, 0, 17, Integer.MAX_VALUE));
      case 4 -> c.setResourceValue(HareRm.GPU, pick(r, -1L, 3L, 1024L, Long.MAX_VALUE));
      case 5, 10, 11 -> ask.setNumContainers(
          pickInt(r, -3, 0, 100, 100_000, Integer.MAX_VALUE, Integer.MAX_VALUE));
      case 6 -> ask.setRelaxLocality(false);
      case 7 -> ask.setAllocationRequestId(pick(r, -1L, Long.MAX_VALUE, r.nextLong()));
      case 8 -> ask.setExecutionTypeRequest(ExecutionTypeRequest.newInstance(
          pick(r, ExecutionType.values()), r.nextBoolean()));
      default -> ask.setNodeLabelExpression(pick(r, "", "gpu", "a&&b")); // 9
    }
  }

  /** A resource an AM might ask, or one at an edge. */
  private static Resource randomResource(Random r) {
    ResourceRequest ask = ResourceRequest.newInstance(Priority.newInstance(1),
        ResourceRequest.ANY, HareRm.resource(1024, 1, r.nextInt(3)), 1);
    if (r.nextBoolean()) {
      edge(r, ask);
    }
    return ask.getCapability();
  }

  private static ContainerId someContainer(Random r, List<Container> own,
      List<Container> others) {
    Supplier<ContainerId> made = () -> BuilderUtils.newContainerId(
        BuilderUtils.newApplicationAttemptId(BuilderUtils.newApplicationId(1, 999), 1),
        r.nextInt(100));
    return switch (r.nextInt(3)) {
      case 0 -> own.isEmpty() ? made.get() : own.get(r.nextInt(own.size())).getId();
      case 1 -> others.isEmpty() ? made.get() : others.get(r.nextInt(others.size())).getId();
      default -> made.get();
    };
  }

  private static MockNM nodeOf(Container c, MockNM[] nodes) {
    for (MockNM nm : nodes) {
      if (nm.getNodeId().equals(c.getNodeId())) {
        return nm;
      }
    }
    throw new IllegalStateException("no node " + c.getNodeId());
  }

  /**
   * A node reports a container it may not run: the random application's, the honest job's or a
   * made-up one, running or ended with a random status, from its own node or another.
   */
  private void strayStatus(Random r, MockNM[] nodes, List<Container> own,
      List<Container> others) throws Exception {
    ContainerId id = someContainer(r, own, others);
    pick(r, nodes).nodeHeartbeat(List.of(BuilderUtils.newContainerStatus(id,
        pick(r, ContainerState.RUNNING, ContainerState.COMPLETE), "stray",
        pickInt(r, 0, 1, 137, ContainerExitStatus.ABORTED, ContainerExitStatus.PREEMPTED),
        HareRm.resource(1024, 1, pick(r, 0L, 1L, 2L)))), true);
    h.rm.drainEvents();
  }

  /**
   * An admin's {@code yarn rmadmin -updateNodeResource}: 0-3 GPUs, at times below what runs
   * there, with no timeout (containers asked back) or one already past (killed at the next
   * heartbeat). YARN times the timeout by the wall clock, so a timeout between the two would make
   * a seed's run depend on the machine's speed.
   */
  private void resize(Random r, MockNM nm) throws Exception {
    setNodeResource(nm, HareRm.resource(16 * 1024, 16, r.nextInt(4)), pickInt(r, -1, 0));
  }

  private void setNodeResource(MockNM nm, Resource resource, int overcommitTimeoutMs)
      throws Exception {
    h.rm.getAdminService().updateNodeResource(UpdateNodeResourceRequest.newInstance(Map.of(
        nm.getNodeId(), ResourceOption.newInstance(resource, overcommitTimeoutMs))));
    h.rm.drainEvents();
    SchedulerNode node = h.scheduler().getSchedulerNode(nm.getNodeId());
    if (!Resources.fitsIn(node.getAllocatedResource(), node.getTotalResource())) {
      overcommitted.put(nm.getNodeId(), Resources.clone(node.getAllocatedResource()));
    }
  }

  /**
   * No node is given more than it has; a node cut below what runs there (an admin's resize) is
   * given nothing more until it fits again.
   */
  private void assertNodesWithinCapacity() {
    for (SchedulerNode node : h.scheduler().getNodeTracker().getAllNodes()) {
      Resource held = node.getAllocatedResource();
      if (Resources.fitsIn(held, node.getTotalResource())) {
        overcommitted.remove(node.getNodeID());
        continue;
      }
      Resource before = overcommitted.get(node.getNodeID());
      assertTrue(node.getNodeName() + " gave more than it has: " + held + " of "
          + node.getTotalResource() + (before == null ? "" : ", cut below " + before),
          before != null && Resources.fitsIn(held, before));
      overcommitted.put(node.getNodeID(), Resources.clone(held));
    }
  }

  @SafeVarargs
  private static <T> T pick(Random r, T... values) {
    return values[r.nextInt(values.length)];
  }

  private static int pickInt(Random r, int... values) {
    return values[r.nextInt(values.length)];
  }

  /**
   * A Hare AM that asks its round's tasks, and once it has them all, ends them and asks the next
   * round: one step of it per fuzz step.
   */
  private final class Honest {
    private final MockAM am;
    private final List<Container> running = new ArrayList<>();
    private int round;
    private boolean asked;

    Honest(MockAM am) {
      this.am = am;
    }

    void step(MockNM[] nodes) throws Exception {
      if (done()) {
        return;
      }
      if (!asked) {
        HareRm.askGpuTasks(am, TASKS);
        asked = true;
      }
      for (MockNM nm : nodes) {
        nm.nodeHeartbeat(true);
      }
      h.rm.drainEvents();
      running.addAll(am.allocate(List.of(), List.of()).getAllocatedContainers());
      if (running.size() >= TASKS) {
        assertEquals("the honest job got more than its round", TASKS, running.size());
        for (Container c : running) {
          assertEquals(c + ": one GPU", 1, HareRm.gpus(c));
          h.finish(nodeOf(c, nodes), c);
        }
        running.clear();
        round++;
        asked = false;
      }
    }

    boolean done() {
      return round >= ROUNDS;
    }
  }
}
