package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.List;
import org.junit.Test;

/** Parsing {@code type=count} lists, GPU naming and node packing, and every refused form. */
public class ClusterSpecTest {

  @Test(timeout = 60_000)
  public void parsesCountsInOrderAndNormalisesTypes() {
    ClusterSpec c = ClusterSpec.parse(" V100=2, t4 = 1 ,k80=0");
    // k80=0 is accepted but has no GPUs, so it is not a type of the cluster
    assertEquals(List.of(GpuType.of("v100"), GpuType.of("t4")), c.types());
    assertEquals(2, c.count(GpuType.of("v100")));
    assertEquals(1, c.count(GpuType.of("t4")));
    assertEquals(0, c.count(GpuType.of("k80")));
    assertEquals(0, c.count(GpuType.of("a100")));
    assertEquals(3, c.size());
    assertEquals("v100=2,t4=1", c.toString());
    assertEquals(0, ClusterSpec.parse("a=0").size());
    assertEquals(List.of(), ClusterSpec.parse("a=0").types());
  }

  @Test(timeout = 60_000)
  public void gpusAreNamedPerTypeAndPackedEightToANode() {
    ClusterSpec c = ClusterSpec.parse("v100=9,t4=1");
    List<Gpu> g = c.gpus();
    assertEquals(10, g.size());
    // v100-0 .. v100-7 fill node v100-n0, v100-8 opens v100-n1; t4 counts from 0 again
    for (int i = 0; i < 8; i++) {
      assertEquals(new Gpu("v100-" + i, GpuType.of("v100"), "v100-n0"), g.get(i));
    }
    assertEquals(new Gpu("v100-8", GpuType.of("v100"), "v100-n1"), g.get(8));
    assertEquals(new Gpu("t4-0", GpuType.of("t4"), "t4-n0"), g.get(9));
    assertEquals(ClusterSpec.GPUS_PER_NODE, 8);
  }

  @Test(timeout = 60_000)
  public void everyBadFormNamesTheEntry() {
    assertRefused(null, "got nothing");
    assertRefused("", "got nothing");
    assertRefused("   ", "got nothing");
    assertRefused("v100", "entry 'v100' must be type=count");
    assertRefused("=4", "entry '=4' must be type=count");
    assertRefused("v100=", "entry 'v100=' must be type=count");
    assertRefused("v100=2,,t4=1", "entry '' must be type=count");
    assertRefused(",v100=2", "entry '' must be type=count");
    assertRefused("v100=2,", "entry '' must be type=count");
    assertRefused("v100=x", "entry 'v100=x': count must be an integer >= 0");
    assertRefused("v100=1.5", "entry 'v100=1.5': count must be an integer >= 0");
    assertRefused("v100=4=5", "entry 'v100=4=5': count must be an integer >= 0");
    assertRefused("v100=99999999999", "entry 'v100=99999999999': count must be an integer");
    assertRefused("v100=-1", "entry 'v100=-1': count must be >= 0");
    assertRefused("v1 00=2", "entry 'v1 00=2': GPU type name must be");
    assertRefused("-v100=2", "entry '-v100=2': GPU type name must be");
    assertRefused("v100=2,t4=1,v100=3", "type v100 listed twice");
    assertRefused("v100=2,V100=3", "type v100 listed twice");
  }

  @Test(timeout = 60_000)
  public void duplicateGpuIdsAreRefused() {
    GpuType a = GpuType.of("a");
    try {
      new ClusterSpec(List.of(new Gpu("g", a, "n0"), new Gpu("g", a, "n1")));
      fail("duplicate id accepted");
    } catch (IllegalArgumentException e) {
      assertEquals("duplicate GPU id g", e.getMessage());
    }
  }

  @Test(timeout = 60_000)
  public void explicitGpusKeepTheirOrderAndCountByType() {
    GpuType a = GpuType.of("a");
    GpuType b = GpuType.of("b");
    ClusterSpec c = new ClusterSpec(List.of(new Gpu("x", b, "n0"), new Gpu("y", a, "n0"),
        new Gpu("z", b, "n1")));
    assertEquals(List.of(b, a), c.types());
    assertEquals(2, c.count(b));
    assertEquals(1, c.count(a));
    assertEquals("b=2,a=1", c.toString());
  }

  private static void assertRefused(String text, String expected) {
    try {
      ClusterSpec c = ClusterSpec.parse(text);
      fail("'" + text + "' accepted as " + c);
    } catch (IllegalArgumentException e) {
      assertTrue("'" + text + "': " + e.getMessage(), e.getMessage().startsWith("cluster: "));
      assertTrue("'" + text + "': " + e.getMessage(), e.getMessage().contains(expected));
    }
  }
}
