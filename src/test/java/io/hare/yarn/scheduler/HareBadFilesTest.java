package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.TaskTimes;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Garbage in the admin's files, one case per row: the profiles file
 * ({@code yarn.scheduler.hare.profiles.file}) and the GPU-type mapping file
 * ({@code yarn.scheduler.hare.gpu-type.mapping-file}). At start the validation the RM runs
 * refuses it, naming the key, the file, the line and what is allowed; on refresh
 * ({@code yarn rmadmin -refreshQueues}) the refresh is refused the same way, the running
 * profiles and mapping are kept, and the RM keeps serving: a well-formed job submitted after
 * the refused refresh gets its GPU containers on the node the old mapping typed.
 */
@RunWith(Parameterized.class)
public class HareBadFilesTest {

  enum Which { PROFILES, MAPPING }

  private static final String GOOD_PROFILES = "model,gpu_type,compute_ms,sync_ms\n"
      + "cnn,v100,100,10\ncnn,k80,1000,10\n";
  private static final String GOOD_MAPPING = "n1 v100\n";

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    byte[] binary = {(byte) 0xff, (byte) 0xfe, 0x00, (byte) 0x80, '\n', (byte) 0xc3, 0x28};
    return Arrays.asList(new Object[][] {
        {"profiles-binary", Which.PROFILES, binary, words("not UTF-8 text")},
        {"profiles-text-not-csv", Which.PROFILES, text("hello world\n"),
            words(":1: field 'model'", "missing column", "model,gpu_type,compute_ms,sync_ms")},
        {"profiles-empty", Which.PROFILES, text(""), words("missing column", "found: nothing")},
        {"profiles-garbage-row", Which.PROFILES, text(GOOD_PROFILES + "%%%% ????\n"),
            words(":4: field 'gpu_type'", ":4: field 'compute_ms'", ":4: field 'sync_ms'",
                "missing value")},
        {"profiles-compute-not-a-number", Which.PROFILES,
            text(GOOD_PROFILES + "rnn,v100,fast,0\n"), words(":4: field 'compute_ms'", "'fast'",
            "a number > 0")},
        {"profiles-compute-negative", Which.PROFILES, text(GOOD_PROFILES + "rnn,v100,-1,0\n"),
            words(":4: field 'compute_ms'", "'-1'")},
        {"profiles-compute-infinite", Which.PROFILES,
            text(GOOD_PROFILES + "rnn,v100,Infinity,0\n"), words("compute_ms", "not finite")},
        {"profiles-compute-huge", Which.PROFILES, text(GOOD_PROFILES + "rnn,v100,1e300,0\n"),
            words(":4: field 'compute_ms'", "at most 31536000000")},
        {"profiles-sync-negative", Which.PROFILES, text(GOOD_PROFILES + "rnn,v100,10,-2\n"),
            words(":4: field 'sync_ms'", "'-2'", ">= 0")},
        {"profiles-bad-type", Which.PROFILES, text(GOOD_PROFILES + "rnn,Tesla V100,10,1\n"),
            words(":4: field 'gpu_type'", "[a-z0-9_-]")},
        {"profiles-duplicate", Which.PROFILES, text(GOOD_PROFILES + "cnn,V100,10,1\n"),
            words(":4: field 'gpu_type'", "already given on line 2")},
        {"profiles-unclosed-quote", Which.PROFILES, text(GOOD_PROFILES + "\"rnn,v100,10,1\n"),
            words("not valid CSV")},
        {"profiles-model-no-tag-can-name", Which.PROFILES,
            text(GOOD_PROFILES + "res net/50,v100,10,1\n"),
            words("'res net/50'", "hare.model", "a-z, 0-9")},
        {"profiles-models-differ-in-case", Which.PROFILES,
            text(GOOD_PROFILES + "CNN,t4,10,1\n"), words("'cnn' and 'CNN'", "lower-cased")},
        {"mapping-binary", Which.MAPPING, binary, words("not UTF-8 text")},
        {"mapping-one-field", Which.MAPPING, text("n1 v100\nlonely-host\n"),
            words(":2: expected 2 fields 'HOST_OR_GLOB GPU_MODEL', got 1")},
        {"mapping-three-fields", Which.MAPPING, text("n1 v100 k80\n"),
            words(":1: expected 2 fields", "got 3")},
        {"mapping-bad-host", Which.MAPPING, text("n1/x v100\n"),
            words(":1: bad host pattern 'n1/x'", "allowed are host names")},
        {"mapping-bad-model", Which.MAPPING, text("n1 Tesla!\n"),
            words(":1: bad GPU model 'Tesla!'", "[a-z0-9_-]")},
        {"mapping-repeated-host", Which.MAPPING, text("n1 v100\nN1 k80\n"),
            words(":2: host pattern 'N1' repeats line 1")},
        {"mapping-unclosed-glob", Which.MAPPING, text("n[1- v100\n"),
            words(":1: bad host glob 'n[1-'")},
        {"mapping-control-characters", Which.MAPPING, text("n1\u0007 v100\n"),
            words(":1: bad host pattern 'n1\\u0007'")},
    });
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String[] words(String... w) {
    return w;
  }

  private static HareRm h;
  private static MockNM n1;
  private static YarnConfiguration conf;
  private static File profiles;
  private static File mapping;

  private final String name;
  private final Which which;
  private final byte[] content;
  private final String[] mentions;

  public HareBadFilesTest(String name, Which which, byte[] content, String[] mentions) {
    this.name = name;
    this.which = which;
    this.content = content;
    this.mentions = mentions;
  }

  @BeforeClass
  public static void startRm() throws Exception {
    profiles = GenericTestUtils.getTestDir("bad-files-profiles.csv");
    mapping = GenericTestUtils.getTestDir("bad-files-mapping.txt");
    Files.writeString(profiles.toPath(), GOOD_PROFILES);
    Files.writeString(mapping.toPath(), GOOD_MAPPING);
    conf = HareRm.conf();
    conf.set(SchedulerKeys.PROFILES_FILE, profiles.getAbsolutePath());
    conf.set(SchedulerKeys.GPU_TYPE_MAPPING_FILE, mapping.getAbsolutePath());
    h = HareRm.start(conf);
    n1 = h.node("n1:1234", 2);
    h.rm.drainEvents();
    assertEquals(GpuType.of("v100"), h.scheduler().gpuType(n1.getNodeId()));
  }

  @AfterClass
  public static void stopRm() {
    if (h != null) {
      h.close();
    }
  }

  @After
  public void restoreGoodFiles() throws IOException {
    Files.writeString(profiles.toPath(), GOOD_PROFILES);
    Files.writeString(mapping.toPath(), GOOD_MAPPING);
  }

  private File file() {
    return which == Which.PROFILES ? profiles : mapping;
  }

  private String key() {
    return which == Which.PROFILES ? SchedulerKeys.PROFILES_FILE
        : SchedulerKeys.GPU_TYPE_MAPPING_FILE;
  }

  /** One a bad field where a case names fields (a garbage row lacks three), else one. */
  private int expectedProblems() {
    long fields = Arrays.stream(mentions).filter(m -> m.matches(":\\d+: field '.*")).count();
    return (int) Math.max(1, fields);
  }

  private void assertNamesTheProblem(String message) {
    assertTrue(name + ": " + message, message.contains(key() + ": " + file()));
    for (String m : mentions) {
      assertTrue(name + ": '" + message + "' should mention " + m, message.contains(m));
    }
  }

  @Test(timeout = 300_000)
  public void refusedAtStartAndOnRefreshWhichKeepsTheOldFiles() throws Exception {
    Files.write(file().toPath(), content);
    // at start: the validation the RM runs in serviceInit (a refused start: HareSettingsTest)
    try {
      HareSettings.read(conf);
      fail(name + ": accepted at start");
    } catch (ConfigException e) {
      assertEquals(e.getMessage(), expectedProblems(), e.problems().size());
      e.problems().forEach(p -> assertTrue(p, p.startsWith(key() + ": " + file())));
      assertNamesTheProblem(String.join("\n", e.problems()));
    }
    HareSettings before = h.scheduler().settings();
    try {
      h.scheduler().reinitialize(conf, h.rm.getRMContext()); // what -refreshQueues does
      fail(name + ": refreshed");
    } catch (IOException e) {
      assertNamesTheProblem(e.getMessage());
    }
    h.rm.drainEvents();
    assertSame("the running settings are kept", before, h.scheduler().settings());
    assertEquals(new TaskTimes(100, 10),
        h.scheduler().settings().profiles().times("cnn", GpuType.of("v100")));
    assertEquals(GpuType.of("v100"), h.scheduler().gpuType(n1.getNodeId()));
    assertAWellFormedJobGetsItsGpus();
  }

  private static void assertAWellFormedJobGetsItsGpus() throws Exception {
    RMApp good = h.submit("hare.model=cnn", "hare.rounds=1", "hare.tasks-per-round=2");
    MockAM am = h.launch(good, n1);
    HareRm.askGpuTasks(am, 2);
    List<Container> got = h.heartbeatAndPull(am, n1);
    assertEquals("both GPU tasks of the good job", 2, got.size());
    for (Container c : got) {
      h.finish(n1, c);
    }
    h.rm.killApp(good.getApplicationId());
    h.rm.waitForState(good.getApplicationId(), RMAppState.KILLED);
  }
}
