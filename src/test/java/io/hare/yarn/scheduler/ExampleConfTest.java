package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import java.io.File;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.Test;

/**
 * The shipped example {@code conf/yarn-site.xml}, as it is, starts a ResourceManager with the Hare
 * scheduler (its real background re-plan thread included), and a GPU job gets containers; so the
 * example an admin copies is known to work.
 */
public class ExampleConfTest extends MockRmTestCase {

  @Test(timeout = 300_000)
  public void exampleYarnSiteStartsTheRmAndPlacesGpuTasks() throws Exception {
    File site = new File("conf/yarn-site.xml"); // surefire runs in the project directory
    assertTrue(site.getAbsolutePath() + " missing", site.isFile());
    YarnConfiguration conf = new YarnConfiguration();
    conf.addResource(new Path(site.toURI()));
    // test-only: where MockRM keeps node attributes
    conf.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        GenericTestUtils.getRandomizedTestDir().toURI().toString());
    h = HareRm.start(conf);
    assertEquals(HareScheduler.class, h.rm.getResourceScheduler().getClass());
    MockNM plain = h.node("gpuhost:1234", 2); // no attribute: the example's default type
    assertEquals(GpuType.of("t4"), h.scheduler().gpuType(plain.getNodeId()));

    RMApp app = h.submit("hare.weight=20", "hare.rounds=2", "hare.tasks-per-round=2");
    MockAM am = h.launch(app, plain);
    HareRm.askGpuTasks(am, 2);
    List<Container> got = h.heartbeatUntil(am, 2, plain);
    assertEquals(2, got.size());
    for (Container c : got) {
      assertEquals(1, HareRm.gpus(c));
    }
    assertEquals("the example's weight.max clamps 20", 8.0,
        h.scheduler().weight(app.getApplicationId()), 0);
  }
}
