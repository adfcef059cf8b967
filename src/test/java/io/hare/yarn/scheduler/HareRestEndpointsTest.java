package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.util.Set;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RMWebServices;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.AppsInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.FifoSchedulerInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.NodesInfo;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.SchedulerInfo;
import org.junit.Test;

/**
 * The RM's REST resources behind {@code /ws/v1/cluster}, {@code /scheduler}, {@code /apps} and
 * {@code /nodes}, called directly on {@link RMWebServices} (what Jersey calls), with the Hare
 * scheduler in the RM.
 */
public class HareRestEndpointsTest extends MockRmTestCase {

  /** What Jersey builds: the services with a response (a no-op one here). */
  private RMWebServices services() throws Exception {
    HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {HttpServletResponse.class},
        (proxy, method, args) -> null);
    Constructor<RMWebServices> c = RMWebServices.class.getDeclaredConstructor(
        ResourceManager.class, Configuration.class, HttpServletResponse.class);
    c.setAccessible(true);
    return c.newInstance(h.rm, h.rm.getConfig(), response);
  }

  @Test(timeout = 300_000)
  public void clusterSchedulerAppsAndNodesAnswer() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM am = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(am, 1);
    assertEquals(1, h.heartbeatAndPull(am, nm).size());
    RMWebServices ws = services();

    assertNotNull(ws.getClusterInfo());
    // the RM knows the Capacity, Fair and FIFO schedulers only; Hare is a FifoScheduler for it
    SchedulerInfo info = ws.getSchedulerInfo().getSchedulerInfo();
    assertTrue(info instanceof FifoSchedulerInfo);
    FifoSchedulerInfo fifo = (FifoSchedulerInfo) info;
    assertEquals("default", fifo.getQueueName());
    assertEquals("RUNNING", fifo.getState());
    assertEquals(1.0f, fifo.getCapacity(), 1e-6);
    assertEquals("dominant share: 1 of 2 GPUs", 0.5f, fifo.getUsedCapacity(), 1e-6);
    assertEquals(1, fifo.getNumNodes());
    assertEquals("the AM and the task", 2, fifo.getNumContainers());
    assertEquals(16 * 1024, fifo.getTotalNodeCapacity());
    assertEquals("1 GB each", 2 * 1024, fifo.getUsedNodeCapacity());
    assertEquals(14 * 1024, fifo.getAvailNodeCapacity());
    assertNotNull(ws.getClusterMetricsInfo());
    NodesInfo nodes = ws.getNodes(null);
    assertEquals(1, nodes.getNodes().size());
    assertEquals("one GPU task (the AM has no GPU)", 1, nodes.getNodes().get(0)
        .getUsedResource().getResource().getResourceValue(HareRm.GPU));
    HttpServletRequest anonymous = (HttpServletRequest) Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {HttpServletRequest.class},
        (proxy, method, args) -> null); // no remote user: ACLs off, full view
    AppsInfo apps = ws.getApps(anonymous, null, Set.of(), null, null, null, null, null, null, null,
        null, Set.of(), Set.of(), null, Set.of());
    assertEquals(1, apps.getApps().size());
  }
}
