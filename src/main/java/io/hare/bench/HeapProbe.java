package io.hare.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap in use after full collections: the live set, to within what the collector leaves.
 * Collects three times, since one collection may leave objects that a finalizer or a reference
 * queue frees only for the next.
 */
public final class HeapProbe {

  private HeapProbe() {}

  public static long usedAfterGc() {
    MemoryMXBean m = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      m.gc();
    }
    return m.getHeapMemoryUsage().getUsed();
  }
}
