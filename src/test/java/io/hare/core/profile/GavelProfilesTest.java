package io.hare.core.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.junit.Assume.assumeTrue;

import io.hare.core.BadInputException;
import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

/**
 * The derivation of task times from Gavel's throughputs, checked against numbers worked out by
 * hand from the file's entries (a small copy in test resources, and the real file when present).
 */
public class GavelProfilesTest {

  private static final GpuType K80 = GpuType.of("k80");
  private static final GpuType P100 = GpuType.of("p100");
  private static final GpuType V100 = GpuType.of("v100");
  private static final double EPS = 1e-6;

  private static GavelProfiles mini() throws Exception {
    try (InputStream in = GavelProfilesTest.class.getResourceAsStream(
        "/gavel/mini-throughputs.json")) {
      return GavelProfiles.parse(in, "mini.json");
    }
  }

  @Test(timeout = 60_000)
  public void namesFollowTheDocumentedMapping() {
    assertEquals("resnet-50-bs64", GavelProfiles.modelName("ResNet-50 (batch size 64)"));
    assertEquals("transformer-bs128", GavelProfiles.modelName("Transformer (batch size 128)"));
    assertEquals("lm-bs5", GavelProfiles.modelName("LM (batch size 5)"));
    assertEquals("a3c", GavelProfiles.modelName("A3C"));
    assertEquals("cyclegan", GavelProfiles.modelName("CycleGAN"));
  }

  @Test(timeout = 60_000)
  public void computeIsOneStepAloneAndSyncIsTheScaleTwoOverhead() throws Exception {
    GavelProfiles g = mini();
    assertEquals(List.of("a3c", "resnet-50-bs128", "resnet-50-bs64"), g.models());
    // v100, ResNet-50 bs64: 4.3948 steps/s alone; 7.9221 steps/s over 2 workers.
    TaskTimes v = g.perStep("resnet-50-bs64", V100);
    assertEquals(1000 / 4.394774823323071, v.computeMs(), EPS); // 227.54 ms
    assertEquals(2000 / 7.922054367597505 - 1000 / 4.394774823323071, v.syncMs(), EPS); // 24.92
    // k80: 2 workers make 1.2636 steps/s, i.e. 1582.7 ms a step, faster than 1615.4 ms alone:
    // the overhead is floored at 0.
    TaskTimes k = g.perStep("resnet-50-bs64", K80);
    assertEquals(1000 / 0.6190282202246573, k.computeMs(), EPS);
    assertEquals(0, k.syncMs(), 0);
    // v100, ResNet-50 bs128 has no scale 2: scale 4 is used, 4 / 7.0293 s a step.
    TaskTimes w = g.perStep("resnet-50-bs128", V100);
    assertEquals(4000 / 7.029294087316617 - 1000 / 2.4967655780898292, w.syncMs(), EPS); // 168.5
  }

  @Test(timeout = 60_000)
  public void entriesWithoutScaleDataGetTheMedianShare() throws Exception {
    GavelProfiles g = mini();
    // Derived shares: k80 bs64 0, v100 bs64 24.92/227.54 = 0.1095, v100 bs128 168.5/400.5 =
    // 0.4208; the median is the v100 bs64 one.
    double share = (2000 / 7.922054367597505 - 1000 / 4.394774823323071)
        / (1000 / 4.394774823323071);
    assertEquals(share, g.fallbackSyncShare(), EPS);
    TaskTimes a3c = g.perStep("a3c", K80);
    assertEquals(1000 / 3.4387678290723933, a3c.computeMs(), EPS);
    assertEquals(share * a3c.computeMs(), a3c.syncMs(), EPS);
    // k80 bs128: scales 2 and 4 are 0 (did not fit), so the share is used as well.
    TaskTimes big = g.perStep("resnet-50-bs128", K80);
    assertEquals(share * big.computeMs(), big.syncMs(), EPS);
    // p100 bs64 was measured alone only.
    assertEquals(share * g.perStep("resnet-50-bs64", P100).computeMs(),
        g.perStep("resnet-50-bs64", P100).syncMs(), EPS);
  }

  @Test(timeout = 60_000)
  public void zeroThroughputAloneMeansCannotRunThere() throws Exception {
    GavelProfiles g = mini();
    assertNull(g.perStep("a3c", P100));
    assertNull(g.table(1).times("a3c", P100));
    assertNull("unconsolidated types are not read",
        g.perStep("a3c", GpuType.of("v100_unconsolidated")));
  }

  @Test(timeout = 60_000)
  public void aTaskOfNStepsIsNTimesOneStep() throws Exception {
    GavelProfiles g = mini();
    ProfileTable t = g.table(8);
    TaskTimes one = g.perStep("resnet-50-bs64", V100);
    TaskTimes eight = t.times("resnet-50-bs64", V100);
    assertEquals(8 * one.computeMs(), eight.computeMs(), EPS);
    assertEquals(8 * one.syncMs(), eight.syncMs(), EPS);
    assertEquals(g.models(), List.copyOf(t.models()));
  }

  @Test(timeout = 60_000)
  public void malformedFilesNameTheEntry() throws Exception {
    assertBadJson("[1, 2]", "expected a JSON object");
    assertBadJson("{\"k80\": {}, \"p100\": {}}", "no object 'v100'");
    assertBadJson("{\"k80\": {\"ResNet\": {\"null\": 1}}, \"p100\": {}, \"v100\": {}}",
        "k80 / ResNet: key must look like");
    assertBadJson("{\"k80\": {\"('A3C', 1)\": {\"null\": \"fast\"}}, \"p100\": {}, \"v100\": {}}",
        "k80 / ('A3C', 1): field 'null' must be a throughput");
    assertBadJson("{\"k80\": ", "not valid JSON");
  }

  private static void assertBadJson(String json, String part) throws Exception {
    try {
      GavelProfiles.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
          "g.json");
      fail("accepted " + json);
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("g.json: "));
      assertTrue(e.getMessage() + " should mention " + part, e.getMessage().contains(part));
    }
  }

  /** The shared data folder, found from the repository or a worktree; null if absent. */
  static Path realFile() {
    for (String p : new String[] {"../shared/data", "../../shared/data"}) {
      Path f = Path.of(p, "gavel-simulation-throughputs.json");
      if (Files.isRegularFile(f)) {
        return f;
      }
    }
    return null;
  }

  @Test(timeout = 60_000)
  public void realFileGivesAllJobTypesAndTheHandComputedEntries() throws Exception {
    Path f = realFile();
    assumeTrue("Gavel data not found next to the repository", f != null);
    GavelProfiles g = GavelProfiles.read(f);
    assertEquals(26, g.models().size());
    assertTrue(g.models().containsAll(List.of("resnet-50-bs64", "transformer-bs128", "a3c",
        "cyclegan", "lm-bs80", "recommendation-bs8192", "resnet-18-bs16")));
    // Transformer bs128 on k80: 0.98158 steps/s alone, 1.65747 over 2 workers:
    // compute 1018.8 ms, sync 2000/1.65747 - 1018.8 = 187.9 ms.
    TaskTimes t = g.perStep("transformer-bs128", K80);
    assertEquals(1018.76, t.computeMs(), 0.01);
    assertEquals(187.90, t.syncMs(), 0.01);
    // ResNet-50 bs64 on v100 as in the small copy: 227.54 ms and 24.92 ms.
    assertEquals(227.54, g.perStep("resnet-50-bs64", V100).computeMs(), 0.01);
    assertEquals(24.92, g.perStep("resnet-50-bs64", V100).syncMs(), 0.01);
    // Recommendation is faster on k80 than on v100 in Gavel's data (30.4 vs 42.9 ms).
    assertTrue(g.perStep("recommendation-bs512", K80).computeMs()
        < g.perStep("recommendation-bs512", V100).computeMs());
    assertTrue(g.fallbackSyncShare() > 0 && g.fallbackSyncShare() < 1);
    for (String m : g.models()) {
      assertEquals(m, List.of(K80, P100, V100), List.copyOf(g.perStep(m).keySet()));
    }
  }
}
