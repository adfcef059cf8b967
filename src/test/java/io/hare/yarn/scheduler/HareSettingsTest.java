package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.hare.HareKeys;
import io.hare.testing.BadSchedulerConf;
import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.junit.Test;

/** A bad configuration stops the RM at start, naming every bad key and value at once. */
public class HareSettingsTest {

  @Test(timeout = 300_000)
  public void defaultsAreValid() throws Exception {
    HareSettings s = HareSettings.read(new YarnConfiguration());
    assertEquals("hare", s.newPolicy().name());
    assertEquals(10.0, s.weightMax(), 0);
    assertEquals("gpu-model", s.gpuTypeAttribute());
    assertEquals("the task-time store is off", "", s.taskTimesStoreUri());
    assertEquals(10_000, s.taskTimesSaveIntervalMs());
  }

  /** The task-time store's keys as an HA pair and a single RM would set them. */
  @Test(timeout = 300_000)
  public void taskTimeStoreKeysAreReadWhenValid() throws Exception {
    for (String uri : List.of("hdfs://ns1/hare/times", "file:///var/lib/hare", "/hare/times")) {
      Configuration conf = new YarnConfiguration();
      conf.set(SchedulerKeys.TASK_TIMES_STORE_URI, " " + uri + " ");
      conf.setLong(SchedulerKeys.TASK_TIMES_STORE_SAVE_INTERVAL_MS, 1);
      HareSettings s = HareSettings.read(conf);
      assertEquals(uri, s.taskTimesStoreUri());
      assertEquals(1, s.taskTimesSaveIntervalMs());
    }
  }

  @Test(timeout = 300_000)
  public void thePolicyBuiltToValidateIsHandedOverToRun() throws Exception {
    Configuration conf = new YarnConfiguration();
    conf.set(SchedulerKeys.POLICY, "hlas");
    HareSettings.WithPolicy read = HareSettings.readWithPolicy(conf);
    assertEquals("hlas", read.policy().name());
    assertEquals("hlas", read.settings().policyName());
    assertNotSame("newPolicy builds another", read.policy(), read.settings().newPolicy());
  }

  @Test(timeout = 300_000)
  public void everyBadKeyIsNamedWithItsValue() throws Exception {
    File badCsv = GenericTestUtils.getTestDir("bad-profiles.csv");
    Files.writeString(badCsv.toPath(), "model,gpu_type,compute_ms,sync_ms\ncnn,v100,-5,0\n");
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(SchedulerKeys.WEIGHT_MAX, "0");
    conf.set(SchedulerKeys.GPU_TYPE_ATTRIBUTE, "gpu.model");
    conf.set(SchedulerKeys.GPU_TYPE_DEFAULT, "Tesla V100!");
    conf.set(SchedulerKeys.PROFILES_FILE, badCsv.getAbsolutePath());
    conf.set(SchedulerKeys.PROFILES_DEFAULT_COMPUTE_MS, "soon");
    conf.set(SchedulerKeys.REPLAN_INTERVAL_MS, "-1");
    conf.set(HareKeys.ORDERING, "random"); // a key of the hare policy itself
    try {
      HareSettings.read(conf);
      fail("accepted");
    } catch (ConfigException e) {
      String m = e.getMessage();
      assertEquals(m, 7, e.problems().size());
      for (String bad : new String[] {SchedulerKeys.WEIGHT_MAX + ": must be a number in [1.0",
          "got '0'", SchedulerKeys.GPU_TYPE_ATTRIBUTE, "gpu.model", SchedulerKeys.GPU_TYPE_DEFAULT,
          "tesla v100!", SchedulerKeys.PROFILES_FILE, "bad-profiles.csv",
          SchedulerKeys.PROFILES_DEFAULT_COMPUTE_MS, "soon", SchedulerKeys.REPLAN_INTERVAL_MS,
          "'-1'", HareKeys.ORDERING, "random"}) {
        assertTrue("message should name " + bad + ":\n" + m, m.contains(bad));
      }
    }
  }

  @Test(timeout = 300_000)
  public void anUnknownPolicyIsNamedWithTheKnownOnes() {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(SchedulerKeys.POLICY, "fastest");
    try {
      HareSettings.read(conf);
      fail("accepted");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(SchedulerKeys.POLICY
          + ": unknown policy 'fastest'; known: hare, hlas"));
    }
  }

  @Test(timeout = 300_000)
  public void theResourceManagerRefusesToStart() {
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.WEIGHT_MAX, "-3");
    conf.set(SchedulerKeys.POLICY, "nope");
    MockRM rm = null;
    try {
      rm = new MockRM(conf);
      rm.start();
      fail("the RM started with a bad configuration");
    } catch (RuntimeException e) {
      StringBuilder chain = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        chain.append('\n').append(t.getMessage());
      }
      assertTrue(chain.toString(), chain.toString().contains(SchedulerKeys.WEIGHT_MAX));
      assertTrue(chain.toString(), chain.toString().contains(SchedulerKeys.POLICY));
    } finally {
      if (rm != null) {
        rm.stop();
      }
    }
  }

  /**
   * Every row of {@link BadSchedulerConf} at once: the RM refuses to start, and its error names
   * each bad key, all in one message.
   */
  @Test(timeout = 300_000)
  public void theResourceManagerNamesEveryBadKeyOfTheTableAtOnce() throws Exception {
    Map<String, String> bad = BadSchedulerConf.all(
        HareSettingsRefusalTest.dir().toPath());
    YarnConfiguration conf = HareRm.conf();
    bad.forEach(conf::set);
    MockRM rm = null;
    try {
      rm = new MockRM(conf);
      rm.start();
      fail("the RM started with " + bad.size() + " bad keys");
    } catch (RuntimeException e) {
      ConfigException why = null;
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof ConfigException c) {
          why = c;
        }
      }
      assertTrue(String.valueOf(e), why != null);
      for (String key : bad.keySet()) {
        assertTrue(key + " not named in:\n" + why.getMessage(),
            why.problems().stream().anyMatch(p -> p.startsWith(key + ":")));
      }
    } finally {
      if (rm != null) {
        rm.stop();
      }
    }
  }

  @Test(timeout = 300_000)
  public void adminKeysAreValidatedWithTheRest() throws Exception {
    File map = GenericTestUtils.getTestDir("bad-gpu-map.txt");
    Files.writeString(map.toPath(), "gpu-* v100\nthis line is bad\n# ok\nh2 Tesla!\n");
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(SchedulerKeys.GPU_TYPE_MAPPING_FILE, map.getAbsolutePath());
    conf.set(SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice", "0.5");
    conf.set(SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "research", "Infinity");
    conf.set(SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "prod", "40"); // fine
    conf.set(SchedulerKeys.QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS, "alice bob carol");
    try {
      HareSettings.read(conf);
      fail("accepted");
    } catch (ConfigException e) {
      String m = e.getMessage();
      assertEquals(m, 5, e.problems().size());
      for (String bad : new String[] {
          SchedulerKeys.GPU_TYPE_MAPPING_FILE + ": " + map.getAbsolutePath() + ":2: expected 2",
          SchedulerKeys.GPU_TYPE_MAPPING_FILE + ": " + map.getAbsolutePath() + ":4: bad GPU model",
          SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice: must be a number in [1.0, 1000000.0],"
              + " got '0.5'",
          SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "research: must be a number in [1.0",
          SchedulerKeys.QUEUE_DEFAULT_ACL_SUBMIT_APPLICATIONS + ": must be an ACL"}) {
        assertTrue("message should contain " + bad + ":\n" + m, m.contains(bad));
      }
    }
  }

  @Test(timeout = 300_000)
  public void theMostSpecificWeightCapApplies() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(SchedulerKeys.WEIGHT_MAX, "8");
    conf.set(SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice", "2");
    conf.set(SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "j.doe", "50");
    conf.set(SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "research", "20");
    WeightCaps caps = HareSettings.read(conf).admin().weightCaps();
    assertEquals("user wins over queue", 2, caps.capFor("alice", "research").max(), 0);
    assertEquals(50, caps.capFor("j.doe", "default").max(), 0);
    assertEquals(20, caps.capFor("bob", "research").max(), 0);
    assertEquals(SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "research",
        caps.capFor("bob", "research").key());
    assertEquals(8, caps.capFor("bob", "default").max(), 0);
  }
}
