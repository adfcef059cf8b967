package io.hare.yarn.scheduler.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.yarn.scheduler.SchedulerReport;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.Test;

/** Hare's filter joins the RM's filter list; {@code hare status} reads the REST answer. */
public class HareWebTest {

  private static final String HARE = HareWebFilterInitializer.class.getName();
  private static final String STATIC = "org.apache.hadoop.http.lib.StaticUserWebFilter";
  private static final String RM_AUTH =
      "org.apache.hadoop.yarn.server.security.http.RMAuthenticationFilterInitializer";

  @Test(timeout = 60_000)
  public void theRmKeepsTheFiltersItWouldHaveHad() {
    // an insecure RM puts its authentication filter before Hadoop's default list, itself only
    assertEquals(RM_AUTH + "," + STATIC + "," + HARE, HareWeb.withInitializer(STATIC, false));
    assertEquals(RM_AUTH + "," + HARE, HareWeb.withInitializer("", false));
    assertEquals(STATIC + "," + HARE, HareWeb.withInitializer(STATIC, true));
    assertEquals("a.B, c.D," + HARE, HareWeb.withInitializer("a.B, c.D", false)
        .replace("a.B,c.D", "a.B, c.D"));
    String listed = "x.Y," + HARE;
    assertEquals("listed by the admin: unchanged", listed, HareWeb.withInitializer(listed, false));
  }

  @Test(timeout = 60_000)
  public void aSchedulerTheRmRecreatesTakesThePageOver() throws Exception {
    Configuration conf = new Configuration(false);
    Supplier<SchedulerReport> first = () -> null;
    Supplier<SchedulerReport> second = () -> null;
    String id = HareWeb.install(conf);
    assertEquals(id, conf.get(HareWeb.INSTANCE_KEY));
    assertNull("made, not started (a standby RM's): the page is YARN's", HareWeb.reports(id));
    AutoCloseable one = HareWeb.serve(id, first);
    assertSame(first, HareWeb.reports(id));
    assertEquals("the RM became active: a new scheduler, the same id", id, HareWeb.install(conf));
    assertEquals("added once", 1, conf.get(HareWeb.INITIALIZERS).split(HARE, -1).length - 1);
    AutoCloseable two = HareWeb.serve(id, second);
    one.close(); // the old one stops late: the new one keeps the page
    assertSame(second, HareWeb.reports(id));
    two.close();
    assertNull(HareWeb.reports(id));
  }

  @Test(timeout = 60_000)
  public void aPredictionIsReadForItsJob() throws IOException {
    ApplicationId a = ApplicationId.newInstance(1, 1);
    String json = "{\"hareScheduler\":{\"atMs\":1000,\"forecast\":{\"basis\":\"estimate: x\"},"
        + "\"jobs\":[{\"id\":\"application_1_0002\",\"predictedCompletionMs\":5},"
        + "{\"id\":\"" + a + "\",\"predictedCompletionMs\":61000}]}}";
    Prediction p = Prediction.parse(new ObjectMapper().readTree(json), a, "test");
    assertEquals(1000, p.atMs());
    assertEquals(61_000, p.completionMs().getAsLong());
    assertEquals("1970-01-01T00:01:01Z (in 1m 0s)", p.describe());

    Prediction none = Prediction.parse(new ObjectMapper().readTree(json.replace("61000", "null")),
        a, "test");
    assertFalse(none.completionMs().isPresent());
    assertEquals("none (estimate: x)", none.describe());
    Prediction gone = Prediction.parse(new ObjectMapper().readTree(
        "{\"hareScheduler\":{\"jobs\":[]}}"), a, "test");
    assertTrue(gone.describe(), gone.describe().contains("does not list " + a));
    try {
      Prediction.parse(new ObjectMapper().readTree("{\"scheduler\":{}}"), a, "http://rm");
      throw new AssertionError("not a Hare answer");
    } catch (IOException e) {
      assertEquals("http://rm is not a Hare scheduler answer", e.getMessage());
    }
  }
}
