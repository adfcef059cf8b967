package io.hare.yarn.scheduler.times;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

import io.hare.core.GpuType;
import io.hare.core.profile.OnlineEstimator.Measured;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.Test;

/**
 * The saver: seeds only the jobs still running, saves on its thread when something changed and
 * only then, tries again after a failure, and saves once more at close; off, it does nothing.
 */
public class TaskTimeSaverTest {

  private static final List<Measured> CNN = List.of(new Measured("cnn", GpuType.of("v100"), 2600,
      20, 5));

  /** Measured times in memory: a version and the jobs; what was seeded. */
  private static final class FakeMeasuredTimes implements MeasuredTimes {
    long version;
    final Map<String, List<Measured>> jobs = new LinkedHashMap<>();
    final Map<String, List<Measured>> seeded = new LinkedHashMap<>();

    synchronized void measure(String job) {
      jobs.put(job, CNN);
      version++;
    }

    @Override
    public synchronized Snapshot changedSince(long since) {
      return since == version ? null : new Snapshot(version, new LinkedHashMap<>(jobs));
    }

    @Override
    public synchronized void seed(Map<String, List<Measured>> saved) {
      seeded.putAll(saved);
      version++;
    }
  }

  /** A store in memory that records each save and can be made to fail. */
  private static final class FakeTaskTimeStore implements TaskTimeStore {
    final Map<String, List<Measured>> saved;
    final List<Map<String, List<Measured>>> saves = new ArrayList<>();
    boolean failing;
    boolean closed;

    FakeTaskTimeStore(Map<String, List<Measured>> saved) {
      this.saved = saved;
    }

    @Override
    public Map<String, List<Measured>> load() {
      return saved;
    }

    @Override
    public synchronized void save(Map<String, List<Measured>> jobs) throws IOException {
      if (failing) {
        throw new IOException("file system down");
      }
      saves.add(jobs);
    }

    synchronized int count() {
      return saves.size();
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static final long NEVER = 3600_000; // the interval of tests that save by hand

  @Test(timeout = 60_000)
  public void onlyTheJobsStillRunningAreSeeded() throws Exception {
    FakeTaskTimeStore store = new FakeTaskTimeStore(Map.of("application_1_0001", CNN,
        "application_1_0002", CNN));
    FakeMeasuredTimes times = new FakeMeasuredTimes();
    try (TaskTimeSaver saver = TaskTimeSaver.start(store, times, NEVER,
        Set.of("application_1_0002")::contains)) {
      saver.loaded().get(30, TimeUnit.SECONDS); // on the saver's thread
      assertEquals(Map.of("application_1_0002", CNN), times.seeded);
    }
  }

  @Test(timeout = 60_000)
  public void aSaveOnlyWhenSomethingChangedAndAFailedOneIsTriedAgain() throws Exception {
    FakeTaskTimeStore store = new FakeTaskTimeStore(Map.of());
    FakeMeasuredTimes times = new FakeMeasuredTimes();
    TaskTimeSaver saver = TaskTimeSaver.start(store, times, NEVER, id -> true);
    saver.loaded().get(30, TimeUnit.SECONDS);
    saver.saveIfChanged(); // the seeding changed the version: the dropped jobs leave the file
    saver.saveIfChanged();
    assertEquals(1, store.count());
    times.measure("application_1_0001");
    store.failing = true;
    saver.saveIfChanged();
    assertEquals(1, store.count());
    store.failing = false;
    saver.saveIfChanged();
    assertEquals(2, store.count());
    assertEquals(Map.of("application_1_0001", CNN), store.saves.get(1));
    times.measure("application_1_0002");
    saver.close(); // the last save
    assertEquals(3, store.count());
    assertEquals(true, store.closed);
    saver.close(); // a second stop does nothing
    assertEquals(3, store.count());
  }

  @Test(timeout = 60_000)
  public void itSavesOnItsOwnThreadEveryInterval() throws Exception {
    FakeTaskTimeStore store = new FakeTaskTimeStore(Map.of());
    FakeMeasuredTimes times = new FakeMeasuredTimes();
    try (TaskTimeSaver saver = TaskTimeSaver.start(store, times, 10, id -> true)) {
      times.measure("application_1_0001");
      GenericTestUtils.waitFor(() -> {
        synchronized (store) {
          return !store.saves.isEmpty()
              && store.saves.get(store.saves.size() - 1).containsKey("application_1_0001");
        }
      }, 5, 30_000);
    }
  }

  @Test(timeout = 60_000)
  public void offItDoesNothing() {
    FakeMeasuredTimes times = new FakeMeasuredTimes();
    TaskTimeSaver saver = TaskTimeSaver.start(TaskTimeStore.NONE, times, NEVER, id -> true);
    assertEquals(0, times.version); // not even seeded
    saver.close();
    assertSame(saver, TaskTimeSaver.start(TaskTimeStore.NONE, times, NEVER, id -> true));
  }
}
