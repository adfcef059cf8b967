package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.fail;

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
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.NodesInfo;
import org.apache.hadoop.yarn.webapp.NotFoundException;
import org.junit.After;
import org.junit.Test;

/**
 * The RM's REST resources behind {@code /ws/v1/cluster}, {@code /scheduler}, {@code /apps} and
 * {@code /nodes}, called directly on {@link RMWebServices} (what Jersey calls), with the Hare
 * scheduler in the RM.
 */
public class HareRestEndpointsTest {

  private HareRm h;

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

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

  @Test(timeout = 60_000)
  public void clusterSchedulerAppsAndNodesAnswer() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM am = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(am, 1);
    assertEquals(1, h.heartbeatAndPull(am, nm).size());
    RMWebServices ws = services();

    assertNotNull(ws.getClusterInfo());
    try {
      ws.getSchedulerInfo();
      fail("RMWebServices now knows other schedulers: provide a SchedulerInfo");
    } catch (NotFoundException e) {
      // documented limit: RMWebServices.getSchedulerInfo knows only the Capacity, Fair and
      // FIFO schedulers and answers 404 for any other; queue usage is in /ws/v1/cluster/metrics
      // and JMX (QueueMetrics), Hare's own state in JMX (HareSchedulerMetrics)
    }
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
