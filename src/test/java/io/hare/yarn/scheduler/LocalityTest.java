package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.Test;

/**
 * An ask's locality as YARN defines it: a relaxed ask goes anywhere (Hare does not weigh where),
 * a strict one ({@code relaxLocality=false}, what AMRMClient sends for containers wanted on
 * given nodes only) only on the nodes it names; a strict GPU ask is refused with a message.
 */
public class LocalityTest extends MockRmTestCase {

  private static final String RACK = NetworkTopology.DEFAULT_RACK;

  /** After the RM's start, which registers the GPU resource type. */
  private static Resource nonGpu() {
    return HareRm.resource(1024, 1, 0);
  }

  /** The three requests AMRMClient sends for {@code n} containers on {@code host} only. */
  private static List<ResourceRequest> only(String host, Resource size, int n) {
    ResourceRequest node = ResourceRequest.newInstance(Priority.newInstance(5), host, size, n);
    ResourceRequest rack = ResourceRequest.newInstance(Priority.newInstance(5), RACK, size, n,
        false);
    ResourceRequest any = ResourceRequest.newInstance(Priority.newInstance(5),
        ResourceRequest.ANY, size, n, false);
    return List.of(node, rack, any);
  }

  @Test(timeout = 120_000)
  public void aStrictNonGpuAskGoesOnlyOnTheNodeItNames() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM h1 = h.node("h1:1234", 0);
    MockNM h2 = h.node("h2:1234", 0);
    MockAM am = h.launch(h.submit(), h1);
    am.allocate(only("h2", nonGpu(), 2), List.of());
    assertEquals("nothing on h1, which the ask does not name", List.of(),
        h.heartbeatAndPull(am, h1));
    List<Container> got = h.heartbeatAndPull(am, h2, h1);
    assertEquals(2, got.size());
    for (Container c : got) {
      assertEquals("h2", c.getNodeId().getHost());
    }
    assertEquals("the ask is taken: nothing more anywhere", List.of(),
        h.heartbeatAndPull(am, h1, h2));
  }

  @Test(timeout = 120_000)
  public void aRelaxedAskStillGoesAnywhere() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM h1 = h.node("h1:1234", 0);
    h.node("h2:1234", 0);
    MockAM am = h.launch(h.submit(), h1);
    ResourceRequest any = ResourceRequest.newInstance(Priority.newInstance(5),
        ResourceRequest.ANY, nonGpu(), 1);
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(5), "h2", nonGpu(), 1),
        ResourceRequest.newInstance(Priority.newInstance(5), RACK, nonGpu(), 1), any),
        List.of());
    List<Container> got = h.heartbeatAndPull(am, h1);
    assertEquals("h2 is a preference only: h1's heartbeat takes it", 1, got.size());
  }

  @Test(timeout = 120_000)
  public void aStrictAskWithoutItsRacksRequestWaitsAndHurtsNoOne() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM h1 = h.node("h1:1234", 0);
    MockAM odd = h.launch(h.submit(), h1);
    odd.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(5), "h1", nonGpu(), 1),
        ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY, nonGpu(), 1,
            false)), List.of());
    assertEquals(List.of(), h.heartbeatAndPull(odd, h1));
    MockAM other = h.launch(h.submit(), h1);
    other.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(5),
        ResourceRequest.ANY, nonGpu(), 1)), List.of());
    assertEquals("the RM goes on serving", 1, h.heartbeatAndPull(other, h1).size());
  }

  @Test(timeout = 120_000)
  public void aStrictGpuAskIsRefusedWithTheReasonAndItsCancelPasses() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM h1 = h.node("h1:1234", 2);
    MockAM am = h.launch(h.submit(), h1);
    try {
      am.allocate(only("h1", HareRm.resource(1024, 1, 1), 1), List.of());
      fail("a strict GPU ask was taken");
    } catch (Exception e) {
      assertTrue(e.toString(), e.toString().contains("strict locality (relaxLocality=false"));
      assertTrue(e.toString(), e.toString().contains("blacklist"));
    }
    am.allocate(only("h1", HareRm.resource(1024, 1, 1), 0), List.of()); // a cancel
    HareRm.askGpuTasks(am, 1);
    assertEquals("a relaxed GPU ask is served", 1, h.heartbeatAndPull(am, h1).size());
  }

  /**
   * The AM container's own ask is the RM's, made inside the attempt's state machine, where a
   * refusal would leave the application ACCEPTED for ever: an AM container Hare cannot serve (a
   * GPU with strict locality; several GPUs for an AM of the Hare protocol) is rejected at
   * admission with a diagnostic, and the RM goes on serving others.
   */
  @Test(timeout = 120_000)
  public void anAmContainerHareCannotServeIsRejectedAtAdmission() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM h1 = h.node("h1:1234", 4);
    RMApp strict = submitWithAm(Set.of(), only("h1", HareRm.resource(1024, 1, 1), 1));
    RMApp wide = submitWithAm(Set.of(HareRm.HARE_AM), List.of(ResourceRequest.newInstance(
        Priority.newInstance(0), ResourceRequest.ANY, HareRm.resource(1024, 1, 2), 1)));
    h.rm.waitForState(strict.getApplicationId(), RMAppState.FAILED);
    h.rm.waitForState(wide.getApplicationId(), RMAppState.FAILED);
    assertTrue(strict.getDiagnostics().toString(), strict.getDiagnostics().toString()
        .contains("its AM container asks for a GPU with strict locality"));
    assertTrue(wide.getDiagnostics().toString(), wide.getDiagnostics().toString()
        .contains("its AM container asks for yarn.io/gpu=2"));
    MockAM other = h.launch(h.submit(), h1);
    HareRm.askGpuTasks(other, 1);
    assertEquals("the RM goes on serving", 1, h.heartbeatAndPull(other, h1).size());
  }

  private RMApp submitWithAm(Set<String> tags, List<ResourceRequest> am) throws Exception {
    return MockRMAppSubmitter.submit(h.rm, MockRMAppSubmissionData.Builder
        .createWithMemory(1024, h.rm).withApplicationTags(tags)
        .withAmResourceRequests(new ArrayList<>(am)) // YARN edits the list
        .withWaitForAppAcceptedState(false).build());
  }
}
