package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.After;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * An AM's allocate must not need its attempt's monitor. YARN's own attempt code, on the
 * scheduler thread, holds the attempt's write lock and then takes its monitor (a container
 * allocated: FifoAppAttempt.allocate, addToNewlyAllocatedContainers); an allocate holding the
 * monitor while waiting for the write lock deadlocked the RM (seen in the embedded demo with
 * 200 ms heartbeats: every RPC handler and the scheduler thread blocked for good).
 */
public class AllocateLockOrderTest {

  private HareRm h;
  private final ExecutorService am = Executors.newSingleThreadExecutor();

  /** One-time loading outside the tests' timeouts. */
  @BeforeClass
  public static void warmUp() {
    HareRm.warmUp();
  }

  @After
  public void stop() {
    am.shutdownNow();
    if (h != null) {
      h.close();
    }
  }

  @Test(timeout = 300_000)
  public void allocateCompletesWhileTheAttemptsMonitorIsHeld() throws Exception {
    h = HareRm.start(HareRm.conf());
    MockNM nm = h.node("h1:1234", 2);
    MockAM a = h.launch(h.submit(), nm);
    HareRm.askGpuTasks(a, 2);
    nm.nodeHeartbeat(true); // the scheduler allocates both; the AM pulls them below
    h.rm.drainEvents();
    HareAppAttempt attempt = HareAppAttempt.of(h.scheduler().getApplicationAttempt(
        a.getApplicationAttemptId()));
    List<Container> got;
    synchronized (attempt) { // as the scheduler thread does inside YARN's attempt code
      Future<List<Container>> pulled = am.submit(() -> a.allocate(List.of(), List.of())
          .getAllocatedContainers());
      got = pulled.get(20, TimeUnit.SECONDS); // blocked for good before the fix
    }
    assertEquals(2, got.size());
  }
}
