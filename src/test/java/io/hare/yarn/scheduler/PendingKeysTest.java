package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

public class PendingKeysTest {

  @Test
  public void aTakeGivesEachKeyOnceInTheOrderFirstReported() {
    PendingKeys<String> keys = new PendingKeys<>();
    keys.add("b");
    keys.add("a");
    keys.add("b");
    keys.add("c");
    keys.remove("c");

    assertFalse(keys.isEmpty());
    assertEquals(List.of("b", "a"), keys.take());
    assertTrue(keys.isEmpty());
    assertEquals(List.of(), keys.take());
  }

  @Test
  public void aKeyReportedAfterATakeIsPendingForTheNext() {
    PendingKeys<String> keys = new PendingKeys<>();
    keys.add("a");
    List<String> first = keys.take();
    keys.add("a"); // reported again while the scheduler works through the first take

    assertEquals(List.of("a"), first);
    assertEquals(List.of("a"), keys.take());
  }

  @Test
  public void keysReportedFromManyThreadsAreAllTakenOnce() throws Exception {
    PendingKeys<Integer> keys = new PendingKeys<>();
    int threads = 4;
    int perThread = 5_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      for (int t = 0; t < threads; t++) {
        int base = t * perThread;
        pool.execute(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          for (int i = 0; i < perThread; i++) {
            keys.add(base + i);
          }
        });
      }
      start.countDown();
      List<Integer> taken = new ArrayList<>();
      pool.shutdown();
      while (!pool.awaitTermination(10, TimeUnit.MILLISECONDS)) {
        taken.addAll(keys.take()); // takes interleaved with the adds
      }
      taken.addAll(keys.take());

      assertEquals(threads * perThread, taken.size());
      assertEquals(threads * perThread, new HashSet<>(taken).size());
    } finally {
      pool.shutdownNow();
    }
  }
}
