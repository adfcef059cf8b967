package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.Test;

/**
 * The inventory's incrementally kept free lists and counts equal a full recount from its GPUs
 * after any mix of node changes (type, count, removal) and tasks starting and ending; the GPUs
 * of a node never share a device index.
 */
public class GpuInventoryTest {

  private static final List<GpuType> TYPES = List.of(GpuType.of("v100"), GpuType.of("t4"),
      GpuType.of("k80"));

  @Test(timeout = 60_000)
  public void freeListAndCountsMatchARecountAfterRandomChanges() {
    for (long seed = 0; seed < 20; seed++) {
      Random r = new Random(seed);
      GpuInventory inv = new GpuInventory();
      List<NodeId> nodes = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        nodes.add(NodeId.newInstance("h" + i, 1));
      }
      List<YarnGpu> running = new ArrayList<>();
      for (int step = 0; step < 400; step++) {
        int op = r.nextInt(10);
        if (op < 3) {
          inv.setNode(nodes.get(r.nextInt(nodes.size())), r.nextInt(5),
              TYPES.get(r.nextInt(TYPES.size())));
        } else if (op == 3) {
          inv.removeNode(nodes.get(r.nextInt(nodes.size())));
        } else if (op < 7) {
          List<YarnGpu> free = inv.free();
          if (!free.isEmpty()) {
            YarnGpu g = free.get(r.nextInt(free.size()));
            inv.start(g, "job" + r.nextInt(3));
            running.add(g);
          }
        } else if (!running.isEmpty()) {
          inv.release(running.remove(r.nextInt(running.size())));
        }
        check(inv, "seed " + seed + " step " + step);
        for (NodeId n : nodes) {
          Set<Integer> devices = new HashSet<>();
          for (YarnGpu g : inv.on(n)) {
            assertTrue("seed " + seed + " step " + step + ": device " + g.index() + " of " + n
                + " twice", devices.add(g.index()));
          }
        }
      }
    }
  }

  /**
   * The busy GPUs a node keeps past its count (it fell silent, or shrank) are shown leaving
   * until they are dropped or the node has them again: a plan must not count on them.
   */
  @Test(timeout = 60_000)
  public void busyGpusKeptPastTheNodesCountAreLeaving() {
    GpuInventory inv = new GpuInventory();
    NodeId n = NodeId.newInstance("h", 1);
    inv.setNode(n, 2, TYPES.get(0));
    YarnGpu busy = inv.on(n).get(1);
    inv.start(busy, "a");
    inv.setNode(n, 0, TYPES.get(0)); // silent: the idle GPU goes, the busy one stays
    busy.publish();
    assertEquals(List.of(busy), inv.on(n));
    assertTrue(busy.leaving());
    inv.setNode(n, 2, TYPES.get(0)); // back
    busy.publish();
    assertFalse(busy.leaving());
    inv.setNode(n, 1, TYPES.get(0)); // shrinks around the busy one: the idle one goes
    busy.publish();
    assertFalse("within the count", busy.leaving());
    inv.setNode(n, 0, TYPES.get(0));
    inv.release(busy); // dropped as its task ends
    assertEquals(List.of(), inv.on(n));
  }

  @Test(timeout = 60_000)
  public void aNodeThatShrinksAroundABusyGpuAndGrowsAgainGivesNoDeviceTwice() {
    GpuInventory inv = new GpuInventory();
    NodeId n = NodeId.newInstance("h", 1);
    inv.setNode(n, 4, TYPES.get(0));
    YarnGpu last = inv.on(n).get(3);
    inv.start(last, "a");
    inv.setNode(n, 2, TYPES.get(0)); // the busy device 3 stays until its task ends
    inv.setNode(n, 4, TYPES.get(0));
    List<Integer> devices = inv.on(n).stream().map(YarnGpu::index).sorted().toList();
    assertEquals(List.of(0, 1, 2, 3), devices);
    assertTrue(last.running());
  }

  @Test(timeout = 60_000)
  public void touchedGpusAreDrainedOnceEach() {
    GpuInventory inv = new GpuInventory();
    inv.setNode(NodeId.newInstance("h", 1), 2, TYPES.get(0));
    assertEquals(2, inv.drainTouched().size());
    YarnGpu g = inv.free().get(0);
    inv.start(g, "a");
    inv.release(g);
    inv.start(g, "b");
    assertEquals(List.of(g), inv.drainTouched());
    assertTrue(inv.drainTouched().isEmpty());
  }

  private static void check(GpuInventory inv, String at) {
    List<YarnGpu> expectedFree = new ArrayList<>();
    Map<GpuType, int[]> expectedCounts = new TreeMap<>();
    for (YarnGpu g : inv.gpus()) {
      int[] c = expectedCounts.computeIfAbsent(g.type(), t -> new int[2]);
      c[0]++;
      if (!g.taken()) {
        c[1]++;
        expectedFree.add(g);
      }
    }
    // type by type in type order, each in cluster order (a stable sort keeps cluster order)
    expectedFree.sort(Comparator.comparing(YarnGpu::type));
    assertEquals(at + ": free", expectedFree, inv.free());
    Map<GpuType, int[]> counts = inv.counts();
    assertEquals(at + ": types", expectedCounts.keySet(), counts.keySet());
    expectedCounts.forEach((t, c) -> {
      assertEquals(at + ": " + t + " total", c[0], counts.get(t)[0]);
      assertEquals(at + ": " + t + " free", c[1], counts.get(t)[1]);
    });
    assertEquals(at + ": free count", expectedFree.size(), inv.freeCount());
  }
}
