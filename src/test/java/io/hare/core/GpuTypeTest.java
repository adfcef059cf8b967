package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

/** GPU type names: case-insensitive, trimmed, and limited to what node attributes allow. */
public class GpuTypeTest {

  @Test(timeout = 60_000)
  public void namesAreTrimmedAndLowerCased() {
    assertEquals("v100", GpuType.of(" V100 ").name());
    assertEquals(GpuType.of("v100"), GpuType.of("V100"));
    assertEquals(GpuType.of("v100").hashCode(), GpuType.of("V100").hashCode());
    assertEquals("a100-80g_sxm", GpuType.of("A100-80G_SXM").toString());
    assertEquals("0x", GpuType.of("0x").name());
  }

  @Test(timeout = 60_000)
  public void lengthLimitIsSixtyFour() {
    String max = "a".repeat(64);
    assertEquals(max, GpuType.of(max).name());
    assertBad("a".repeat(65));
  }

  @Test(timeout = 60_000)
  public void badNamesAreRefused() {
    try {
      GpuType.of(null);
      fail("null accepted");
    } catch (IllegalArgumentException e) {
      assertEquals("GPU type name must not be null", e.getMessage());
    }
    for (String bad : new String[] {"", "  ", "-v100", "_v100", "v100!", "a b", "v1.0", "t4/x"}) {
      assertBad(bad);
    }
  }

  @Test(timeout = 60_000)
  public void orderIsByName() {
    assertTrue(GpuType.of("k80").compareTo(GpuType.of("t4")) < 0);
    assertTrue(GpuType.of("V100").compareTo(GpuType.of("t4")) > 0);
    assertEquals(0, GpuType.of("T4").compareTo(GpuType.of("t4")));
  }

  private static void assertBad(String name) {
    try {
      GpuType t = GpuType.of(name);
      fail("'" + name + "' accepted as " + t);
    } catch (IllegalArgumentException e) {
      // the message shows the normalised name so a stray space or case is visible
      assertTrue(e.getMessage(), e.getMessage().startsWith("GPU type name must be 1-64 of"));
      assertTrue(e.getMessage(),
          e.getMessage().endsWith("got '" + name.trim().toLowerCase() + "'"));
    }
  }
}
