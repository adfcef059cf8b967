package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.demo.DemoJob;
import io.hare.demo.DemoProfiles;
import io.hare.demo.DemoReport;
import io.hare.demo.DemoResult;
import io.hare.demo.DemoRun;
import io.hare.demo.Fault;
import io.hare.demo.FaultPlan;
import io.hare.demo.Injected;
import io.hare.embedded.EmbeddedCluster;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;

/** Checks of demo runs with injected faults, shared by the fault ITs. */
final class FaultChecks {

  private FaultChecks() {}

  /**
   * Runs {@code jobs} under {@code hare} on {@code nodes} with {@code faults} injected, in the
   * fresh test directory {@code name}, each task holding its emulated GPU {@code gpuMs} times its
   * type's slowdown; writes the run's time and report to its summary.txt.
   */
  static DemoResult runWith(String name, List<EmbeddedCluster.Node> nodes, List<DemoJob> jobs,
      Set<Fault> faults, long timeoutMs, int amAttempts, long gpuMs) throws Exception {
    File base = GenericTestUtils.getTestDir(name);
    FileUtil.fullyDelete(base);
    DemoProfiles profiles = DemoProfiles.calibrate(base, nodes.stream()
        .mapToInt(EmbeddedCluster.Node::gpus).sum(), 100);
    DemoRun demo = new DemoRun(new DemoRun.Settings(nodes, gpuMs, 100, 100,
        Path.of("target/hare-yarn.jar").toAbsolutePath(), timeoutMs, Map.of(), amAttempts),
        profiles);
    long t0 = System.currentTimeMillis();
    DemoResult run = demo.run("hare", jobs, base, new FaultPlan(faults));
    Files.writeString(base.toPath().resolve("summary.txt"), "run took "
        + (System.currentTimeMillis() - t0) + " ms\n" + report(run));
    return run;
  }

  /** The run's tables and injected faults, for failure messages. */
  static String report(DemoResult r) {
    StringWriter s = new StringWriter();
    PrintWriter p = new PrintWriter(s);
    DemoReport.printJobs(r, p);
    r.tasks().forEach(t -> p.println("  " + t));
    r.syncs().forEach(t -> p.println("  " + t));
    p.flush();
    return s.toString();
  }

  /** Every job succeeded with the reference model, but those made to fail, which failed. */
  static void jobsAsExpected(DemoResult r) {
    for (DemoResult.Job j : r.jobs()) {
      if (r.mustFail().contains(j.name())) {
        assertEquals(j.name() + "\n" + report(r), "FAILED", j.finalState());
      } else {
        assertEquals(j.name() + "\n" + report(r), "SUCCEEDED", j.finalState());
        assertTrue(j.name() + "'s model differs from the reference\n" + report(r),
            j.modelMatchesReference());
      }
    }
  }

  /**
   * Each round of a succeeded job: exactly one successful sync step, after a succeeded attempt
   * of each of the k tasks (indexes 0..k-1) ended; no attempt of the next round started before
   * that sync ended; no round beyond R, none skipped.
   */
  static void roundsCompleteOnceAndInOrder(DemoResult r, DemoResult.Job j) {
    String where = j.name() + " (" + j.appId() + ")";
    for (int round = 0; round < j.rounds(); round++) {
      List<DemoResult.Sync> ok = okSyncs(r, j, round);
      assertEquals(where + " round " + round + ": successful sync steps\n" + report(r), 1,
          ok.size());
      DemoResult.Sync sync = ok.get(0);
      Set<Integer> done = new TreeSet<>();
      for (DemoResult.Task t : tasks(r, j, round)) {
        if ("SUCCEEDED".equals(t.state()) && t.endMs() <= sync.startMs()) {
          done.add(t.index());
        }
      }
      assertEquals(where + " round " + round + ": tasks done before the sync\n" + report(r),
          IntStream.range(0, j.tasksPerRound()).boxed().collect(Collectors.toSet()), done);
      for (DemoResult.Task next : tasks(r, j, round + 1)) {
        assertTrue(where + ": " + next + " started before round " + round + "'s sync ended at "
            + sync.endMs() + "\n" + report(r), next.startMs() >= sync.endMs());
      }
    }
    assertTrue(where + ": a round beyond " + j.rounds() + "\n" + report(r), r.tasks().stream()
        .noneMatch(t -> t.appId().equals(j.appId()) && t.round() >= j.rounds()));
    assertTrue(where + ": a sync beyond round " + j.rounds() + "\n" + report(r), r.syncs()
        .stream().noneMatch(s -> s.appId().equals(j.appId()) && s.round() >= j.rounds()));
  }

  /** {@link #roundsCompleteOnceAndInOrder} for every job that succeeded. */
  static void everyRoundOnceAndInOrder(DemoResult r) {
    for (DemoResult.Job j : r.jobs()) {
      if (j.succeeded()) {
        roundsCompleteOnceAndInOrder(r, j);
      }
    }
  }

  /** The one injection of {@code f}, which happened. */
  static Injected injected(DemoResult r, Fault f) {
    List<Injected> of = r.injected().stream().filter(i -> i.fault().equals(f.label()))
        .collect(Collectors.toList());
    assertEquals(f.label() + " injections: " + r.injected(), 1, of.size());
    assertTrue(f.label() + " was not injected: " + of.get(0), of.get(0).happened());
    return of.get(0);
  }

  static DemoResult.Job job(DemoResult r, String name) {
    return r.jobs().stream().filter(j -> j.name().equals(name)).findFirst().orElseThrow();
  }

  static List<DemoResult.Task> tasks(DemoResult r, DemoResult.Job j, int round) {
    return r.tasks().stream().filter(t -> t.appId().equals(j.appId()) && t.round() == round)
        .collect(Collectors.toList());
  }

  /**
   * The task attempt container {@code containerId} was running at {@code atMs} (an injection's
   * time): the last one it started by then, as a warm container runs several in turn.
   */
  static DemoResult.Task task(DemoResult r, String containerId, long atMs) {
    return r.tasks().stream().filter(t -> t.containerId().equals(containerId)
        && t.startMs() <= atMs).max(Comparator.comparingLong(DemoResult.Task::startMs))
        .orElseThrow(() -> new AssertionError("no task attempt in " + containerId
            + " started by " + atMs + "\n" + report(r)));
  }

  static List<DemoResult.Sync> okSyncs(DemoResult r, DemoResult.Job j, int round) {
    return r.syncs().stream().filter(s -> s.appId().equals(j.appId()) && s.round() == round
        && s.endMs() >= 0 && s.exitCode() == 0).collect(Collectors.toList());
  }
}
