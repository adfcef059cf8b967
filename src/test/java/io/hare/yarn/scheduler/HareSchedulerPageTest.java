package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.SchedulerKeys;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The RM web UI's scheduler page and Hare's REST answer, over HTTP from a MockRM with its web
 * app started, on whichever Hadoop the build runs (3.5 by default, 3.4 with {@code -Phadoop-3.4}).
 * YARN's own FIFO page fails on both with HTTP 500 (its applications block needs a Guice binding
 * the RM never makes); Hare's filter answers {@code /cluster/scheduler} instead. Two 2-GPU nodes
 * of types v100 and k80; job A (weight 2, R = 4, k = 3) runs 3 tasks, job B (weight 1) runs one
 * and waits for one more.
 */
public class HareSchedulerPageTest {

  private HareRm h;
  private RMApp a;
  private RMApp b;

  /** One-time loading outside the tests' timeouts. */
  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    if (h != null) {
      h.close();
    }
  }

  private void twoJobsOnTwoTypes() throws Exception {
    twoJobsOnTwoTypes(HareRm.conf());
  }

  private void twoJobsOnTwoTypes(YarnConfiguration conf) throws Exception {
    conf.setBoolean("mockrm.webapp.enabled", true); // MockRM.ENABLE_WEBAPP, package-private
    conf.set(YarnConfiguration.RM_WEBAPP_ADDRESS, "localhost:0");
    conf.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, true); // the RM writes back its port
    h = HareRm.start(conf);
    MockNM n1 = h.node("h1:1234", 2);
    MockNM n2 = h.node("h2:1234", 2);
    h.setType("h1", "v100");
    h.setType("h2", "k80");
    a = h.submit("hare.weight=2", "hare.rounds=4", "hare.tasks-per-round=3");
    MockAM amA = h.launch(a, n1);
    HareRm.askGpuTasks(amA, 3);
    assertEquals(3, h.heartbeatAndPull(amA, n1, n2).size());
    b = h.submit("hare.weight=1");
    MockAM amB = h.launch(b, n2);
    HareRm.askGpuTasks(amB, 2);
    List<Container> got = h.heartbeatAndPull(amB, n1, n2);
    assertEquals("one GPU was left", 1, got.size());
  }

  private record Answer(int status, String contentType, String body, String allow) {}

  private Answer get(String path) throws IOException {
    return request("GET", path);
  }

  private Answer request(String method, String path) throws IOException {
    String base = WebAppUtils.getRMWebAppURLWithScheme(h.rm.getConfig());
    HttpURLConnection c = (HttpURLConnection) new URL(base + path).openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(60_000);
    c.setReadTimeout(60_000);
    c.setRequestProperty("Accept", "application/json, text/html");
    try {
      int status = c.getResponseCode();
      InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Answer(status, String.valueOf(c.getContentType()), body,
          c.getHeaderField("Allow"));
    } finally {
      c.disconnect();
    }
  }

  @Test(timeout = 300_000)
  public void schedulerPageShowsGpusTasksAndPredictions() throws Exception {
    twoJobsOnTwoTypes();
    Answer page = get("/cluster/scheduler");
    assertEquals(page.body(), 200, page.status());
    assertTrue(page.contentType(), page.contentType().startsWith("text/html"));
    String html = page.body();
    assertTrue(html, html.contains("<td>k80</td><td>2</td><td>2</td><td>0</td>"));
    assertTrue(html, html.contains("<td>v100</td><td>2</td><td>2</td><td>0</td>"));
    assertTrue("4 running, 1 waiting, no standby: " + html,
        html.contains("<tr><td>4</td><td>1</td><td>0</td></tr>"));
    String rowA = html.substring(html.indexOf("<tr><td><a href=\"/cluster/app/"
        + a.getApplicationId() + "\">"));
    assertTrue(rowA, rowA.startsWith("<tr><td><a href=\"/cluster/app/" + a.getApplicationId()
        + "\">" + a.getApplicationId() + "</a></td><td>" + a.getUser() + "</td><td>2.00</td>"));
    assertTrue(rowA, rowA.contains("<td>3</td><td>0 of 4</td><td>3</td><td>0</td><td>20"));
    assertTrue("A's predicted completion is shown with how far off it is: " + rowA,
        rowA.substring(0, rowA.indexOf("</tr>")).matches("(?s).*<td>20\\S+Z \\(in \\d+m \\d+s\\)</td>$"));
    assertTrue(html, html.contains(b.getApplicationId() + "</a></td><td>" + b.getUser()
        + "</td><td>1.00</td>"));
    assertTrue(html, html.contains("estimate: what is left of each job"));
  }

  @Test(timeout = 300_000)
  public void restAnswerCarriesTheSameAsJson() throws Exception {
    twoJobsOnTwoTypes();
    Answer rest = get("/ws/v1/hare/scheduler");
    assertEquals(rest.body(), 200, rest.status());
    assertTrue(rest.contentType(), rest.contentType().startsWith("application/json"));
    JsonNode s = new ObjectMapper().readTree(rest.body()).get("hareScheduler");
    assertEquals("hare", s.get("policy").asText());
    Map<String, JsonNode> types = new HashMap<>();
    s.get("gpus").forEach(g -> types.put(g.get("type").asText(), g));
    assertEquals(2, types.size());
    for (String t : List.of("v100", "k80")) {
      assertEquals(t, 2, types.get(t).get("total").asInt());
      assertEquals(t, 2, types.get(t).get("used").asInt());
      assertEquals(t, 0, types.get(t).get("free").asInt());
    }
    assertEquals(4, s.get("gpuTasks").get("running").asInt());
    assertEquals(1, s.get("gpuTasks").get("waiting").asInt());
    assertTrue(s.get("forecast").get("available").asBoolean());
    long at = s.get("atMs").asLong();
    JsonNode jobA = s.get("jobs").get(0);
    assertEquals(a.getApplicationId().toString(), jobA.get("id").asText());
    assertEquals(2.0, jobA.get("weight").asDouble(), 1e-9);
    assertEquals(4, jobA.get("rounds").asInt());
    assertEquals(0, jobA.get("roundsDone").asInt());
    assertEquals(3, jobA.get("runningTasks").asInt());
    long predicted = jobA.get("predictedCompletionMs").asLong();
    // one-minute tasks (the default estimate): the running round ends within a minute, three
    // more rounds follow one after the other
    assertTrue("A: " + (predicted - at) + " ms", predicted - at > 3 * 60_000);
    assertTrue("A: " + (predicted - at) + " ms", predicted - at <= 4 * 60_000);
    JsonNode jobB = s.get("jobs").get(1);
    assertEquals(b.getApplicationId().toString(), jobB.get("id").asText());
    assertTrue(jobB.get("rounds").isNull());
    assertEquals(1, jobB.get("waitingTasks").asInt());
    assertFalse(jobB.get("predictedCompletionMs").isNull());

    // Hadoop's web clients authenticate (SPNEGO) with an OPTIONS request to the URL they read
    Answer options = request("OPTIONS", "/ws/v1/hare/scheduler");
    assertEquals(options.body(), 200, options.status());
    assertEquals("GET, HEAD, OPTIONS", options.allow());

    Answer yarns = get("/ws/v1/cluster/scheduler");
    assertEquals("YARN's own answer stays", 200, yarns.status());
    assertEquals("fifoScheduler", new ObjectMapper().readTree(yarns.body()).get("scheduler")
        .get("schedulerInfo").get("type").asText());
  }

  @Test(timeout = 300_000)
  public void withAclsOthersJobsAreForTheQueuesAdministrators() throws Exception {
    YarnConfiguration conf = HareRm.conf();
    conf.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, true);
    conf.set(SchedulerKeys.QUEUE_DEFAULT_ACL_ADMINISTER_QUEUE, "root ");
    twoJobsOnTwoTypes(conf);
    ObjectMapper json = new ObjectMapper();
    for (String user : List.of(a.getUser(), "root")) {
      Answer r = get("/ws/v1/hare/scheduler?user.name=" + user);
      assertEquals(r.body(), 200, r.status());
      JsonNode s = json.readTree(r.body()).get("hareScheduler");
      assertEquals(user, 2, s.get("jobs").size());
      assertEquals(user, 0, s.get("hiddenJobs").asInt());
    }
    Answer other = get("/ws/v1/hare/scheduler?user.name=mallory");
    JsonNode s = json.readTree(other.body()).get("hareScheduler");
    assertEquals(0, s.get("jobs").size());
    assertEquals(2, s.get("hiddenJobs").asInt());
    assertEquals("the GPUs are not secret", 4, s.get("gpuTasks").get("running").asInt());
    Answer page = get("/cluster/scheduler?user.name=mallory");
    assertEquals(200, page.status());
    assertFalse(page.body(), page.body().contains(a.getApplicationId().toString()));
    assertTrue(page.body(), page.body().contains("2 jobs of other users are not shown"));
  }
}
