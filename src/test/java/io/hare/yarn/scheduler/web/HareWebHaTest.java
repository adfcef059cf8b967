package io.hare.yarn.scheduler.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.scheduler.HareScheduler;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.net.ServerSocketUtil;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.junit.After;
import org.junit.Test;

/**
 * The scheduler page and {@code hare status} with ResourceManager high availability: two RMs in
 * a MiniYARNCluster, failover by hand. Only the active RM's scheduler answers Hare's REST path;
 * the standby's lets the request through to YARN, which sends it on to the active RM as it does
 * its own pages, and {@code hare status} asks the active RM, before and after a failover.
 */
public class HareWebHaTest {

  private static final StateChangeRequestInfo BY_USER =
      new StateChangeRequestInfo(HAServiceProtocol.RequestSource.REQUEST_BY_USER);

  private MiniYARNCluster cluster;

  @After
  public void stop() {
    if (cluster != null) {
      cluster.stop();
    }
  }

  @Test(timeout = 300_000)
  public void onlyTheActiveRmAnswersAndHareStatusFollowsAFailover() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, HareScheduler.class, ResourceScheduler.class);
    conf.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    conf.setBoolean(YarnConfiguration.AUTO_FAILOVER_ENABLED, false);
    // each RM's addresses chosen here: with ephemeral ports an HA RM does not write back the
    // web port it bound, and a client needs both RMs' addresses
    conf.set(YarnConfiguration.RM_HA_IDS, "rm0,rm1");
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    List<String> keys = YarnConfiguration.getServiceAddressConfKeys(conf);
    int[] ports = ServerSocketUtil.getPorts(2 * keys.size());
    for (int i = 0; i < 2; i++) {
      for (int k = 0; k < keys.size(); k++) {
        conf.set(HAUtil.addSuffix(keys.get(k), "rm" + i),
            "localhost:" + ports[i * keys.size() + k]);
      }
    }
    ResourceUtils.resetResourceTypes(conf);
    cluster = new MiniYARNCluster("hare-ha", 2, 0, 1, 1);
    cluster.init(conf);
    cluster.start();
    rm(0).getRMContext().getRMAdminService().transitionToActive(BY_USER);
    assertEquals(HAServiceState.STANDBY, rm(1).getRMContext().getHAServiceState());
    YarnConfiguration client = clientConf();

    assertTrue("the active RM answers", get(webApp(client, 0)).isHare());
    assertSentOnTo(get(webApp(client, 1)), webApp(client, 0));
    assertSentOnTo(get(rmWeb(client, 1) + "/cluster/scheduler"),
        rmWeb(client, 0) + "/cluster/scheduler");
    ApplicationId unknown = ApplicationId.newInstance(1, 1);
    assertTrue(Prediction.fetch(client, unknown).basis().contains("does not list"));

    rm(0).getRMContext().getRMAdminService().transitionToStandby(BY_USER);
    rm(1).getRMContext().getRMAdminService().transitionToActive(BY_USER);
    // YARN does not send readers of an RM that was active on (its own pages answer there as
    // before); Hare's scheduler, stopped there, does not answer either
    assertFalse(get(webApp(client, 0)).isHare());
    assertTrue("the RM now active answers", get(webApp(client, 1)).isHare());
    assertTrue("hare status asks the active RM after the failover",
        Prediction.fetch(client, unknown).basis().contains("does not list"));
  }

  private ResourceManager rm(int i) {
    return cluster.getResourceManager(i);
  }

  /** A client's view: the RMs' addresses, no RM's own id. */
  private YarnConfiguration clientConf() {
    YarnConfiguration client = new YarnConfiguration(cluster.getConfig());
    client.unset(YarnConfiguration.RM_HA_ID);
    return client;
  }

  private static String rmWeb(YarnConfiguration client, int i) {
    return WebAppUtils.getRMWebAppURLWithScheme(client, i);
  }

  private static String webApp(YarnConfiguration client, int i) {
    return rmWeb(client, i) + HareWebFilter.REST_PATH;
  }

  /** A standby RM's answer: not Hare's, but YARN's redirect to the same path on the active RM. */
  private static void assertSentOnTo(Response r, String activeUrl) {
    assertFalse("a standby RM's scheduler does not answer", r.isHare());
    assertEquals("YARN sends the reader on to the active RM: " + r, 307, r.status());
    assertEquals(activeUrl, r.location());
  }

  private record Response(int status, String location, String body) {
    boolean isHare() {
      return status == 200 && body.contains("\"hareScheduler\"");
    }
  }

  /** A GET, redirects not followed. */
  private static Response get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setInstanceFollowRedirects(false);
    c.setConnectTimeout(10_000);
    c.setReadTimeout(30_000);
    try {
      int status = c.getResponseCode();
      InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Response(status, c.getHeaderField("Location"), body);
    } finally {
      c.disconnect();
    }
  }
}
