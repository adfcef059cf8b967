package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.Test;

/** Which nodes fall silent, when, in what order, and when they are back. */
public class NodeLivenessTest {

  private static final NodeId A = NodeId.newInstance("a", 1);
  private static final NodeId B = NodeId.newInstance("b", 1);

  @Test(timeout = 60_000)
  public void aNodeFallsSilentOnlyAfterMoreThanTheGraceAndOnce() {
    NodeLiveness l = new NodeLiveness(1_000);
    l.heard(A, 0);
    assertEquals("at exactly the grace it is not silent", List.of(), l.fallenSilent(1_000));
    assertEquals(List.of(A), l.fallenSilent(1_001));
    assertEquals("reported once", List.of(), l.fallenSilent(5_000));
    assertEquals(1, l.silentCount());
  }

  @Test(timeout = 60_000)
  public void aHeartbeatKeepsANodeAliveAndBringsASilentOneBack() {
    NodeLiveness l = new NodeLiveness(1_000);
    l.heard(A, 0);
    l.heard(B, 0);
    assertFalse("not silent: not back", l.heard(A, 900));
    assertEquals("only B was last heard over the grace ago", List.of(B), l.fallenSilent(1_500));
    assertTrue("B is back", l.heard(B, 1_600));
    assertEquals(0, l.silentCount());
    assertEquals(List.of(A), l.fallenSilent(1_901));
    assertEquals("B heard at 1,600", List.of(B), l.fallenSilent(2_601));
  }

  @Test(timeout = 60_000)
  public void aRemovedNodeIsNeitherSilentNorReported() {
    NodeLiveness l = new NodeLiveness(1_000);
    l.heard(A, 0);
    l.heard(B, 0);
    l.fallenSilent(2_000);
    l.removed(A);
    assertEquals(1, l.silentCount());
    l.heard(A, 3_000);
    l.removed(A);
    assertEquals(List.of(), l.fallenSilent(10_000));
  }
}
