package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.embedded.SchedulerJournal;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;

/**
 * Contended windows and the GPU-seconds in them, on a made-up run of two queues (team-a 0.6,
 * team-b 0.4 of 5 GPUs) and a stock application in default.
 */
public class ContendedSharesTest {

  private static final String A = "application_1_0001";
  private static final String B = "application_1_0002";
  private static final String SHELL = "application_1_0003";

  private static SchedulerJournal.Entry asks(long ms, String app, int outstanding) {
    return new SchedulerJournal.Entry(SchedulerJournal.Kind.ASKS, ms, app, null, null, null,
        outstanding, false);
  }

  private static DemoResult.Task task(String app, long start, long end) {
    return new DemoResult.Task(app, 0, 0, "127.0.0.2", "v100", 0,
        "container_1_0001_01_000002", start, end, end < 0 ? "LOST" : "SUCCEEDED");
  }

  private static DemoResult.Job hare(String app, String queue) {
    return new DemoResult.Job(app, app, 1, "resnet50", 1, 1, 0, 10_000, "SUCCEEDED", true, "",
        DemoResult.Job.HARE, queue);
  }

  /**
   * team-a waits from 1 s to 5 s and from 6 s on, team-b from 2 s to 8 s: the windows are
   * 2-5 s and 6-8 s, 5 s in all.
   */
  static DemoResult run() {
    List<DemoResult.Job> jobs = List.of(hare(A, "team-a"), hare(B, "root.team-b"),
        new DemoResult.Job(SHELL, "shell", 0, "-", 0, 0, 0, 9000, "SUCCEEDED", false, "",
            "distributedshell", "default"));
    List<SchedulerJournal.Entry> journal = List.of(
        asks(1000, A, 4),
        asks(1500, SHELL, 2), // not a GPU queue of the figures: ignored
        asks(2000, B, 3),
        new SchedulerJournal.Entry(SchedulerJournal.Kind.STARTED, 1500, A, "ca", "h", "v100", 0,
            false), // held by team-a 1.5-7 s: 3 s in the first window, 1 s in the second
        new SchedulerJournal.Entry(SchedulerJournal.Kind.STARTED, 2500, B, "cb", "h", "v100", 0,
            false), // held by team-b 2.5 s on, to the journal's end: 2.5 s and 2 s
        asks(3000, A, 3),
        asks(5000, A, 0),
        asks(6000, A, 2),
        new SchedulerJournal.Entry(SchedulerJournal.Kind.ENDED, 7000, A, "ca", null, null, 0,
            true),
        asks(8000, B, 0),
        asks(9000, A, 0));
    List<DemoResult.Task> tasks = List.of(
        task(A, 0, 4000), // 2 s in the first window
        task(A, 4500, 9000), // 0.5 s in the first, 2 s in the second
        task(B, 2500, 7000), // 2.5 s and 1 s
        task(B, 3000, -1), // lost: counts nothing
        task(SHELL, 2000, 8000)); // not a GPU queue
    return new DemoResult("hare", jobs, tasks, List.of(), journal, Map.of("127.0.0.2", 5),
        Map.of("127.0.0.2", "v100"));
  }

  private static Map<String, Double> shares() {
    Map<String, Double> s = new LinkedHashMap<>();
    s.put("team-a", 0.6);
    s.put("team-b", 0.4);
    return s;
  }

  @Test(timeout = 60_000)
  public void windowsAreWhereEveryQueueWaitsAndTasksCountOnlyInThem() {
    ContendedShares.Figures f = ContendedShares.of(run(), shares());
    assertEquals(5.0, f.contendedS(), 1e-9);
    assertEquals(5, f.gpus());
    ContendedShares.Queue a = f.queues().get(0);
    ContendedShares.Queue b = f.queues().get(1);
    assertEquals("team-a", a.name());
    assertEquals(0.6, a.guaranteedShare(), 1e-9);
    assertEquals(4.5, a.contendedGpuSeconds(), 1e-9);
    assertEquals(0.6 * 5 * 5, a.contendedGuaranteedGpuSeconds(), 1e-9);
    assertEquals("team-b", b.name());
    assertEquals(3.5, b.contendedGpuSeconds(), 1e-9);
    assertEquals(0.4 * 5 * 5, b.contendedGuaranteedGpuSeconds(), 1e-9);
    assertEquals(4.0, a.contendedHeldGpuSeconds(), 1e-9);
    assertEquals(4.5, b.contendedHeldGpuSeconds(), 1e-9);
    assertFalse(f.met(0.9));
    assertTrue(f.met(0.3));
    assertFalse(f.heldMet(0.3));
    assertTrue(f.heldMet(0.25));
  }

  @Test(timeout = 60_000)
  public void aRunWithoutContentionTestsNoGuarantee() {
    DemoResult r = run();
    DemoResult quiet = new DemoResult("hare", r.jobs(), r.tasks(), List.of(),
        List.of(asks(1000, A, 4), asks(3000, A, 0), asks(4000, B, 2), asks(5000, B, 0)),
        r.gpusByHost(), r.typeByHost());
    ContendedShares.Figures f = ContendedShares.of(quiet, shares());
    assertEquals(0, f.contendedS(), 0);
    assertTrue(Double.isNaN(f.queues().get(0).ofGuarantee()));
    assertFalse("no window, nothing met", f.met(0.9));
  }

  @Test(timeout = 60_000)
  public void aWindowStillOpenAtTheJournalsEndClosesThere() {
    DemoResult r = run();
    DemoResult cut = new DemoResult("hare", r.jobs(), r.tasks(), List.of(),
        List.of(asks(1000, A, 4), asks(2000, B, 1),
            new SchedulerJournal.Entry(SchedulerJournal.Kind.ENDED, 4000, A, "c", null, null, 0,
                true)), r.gpusByHost(), r.typeByHost());
    assertEquals(2.0, ContendedShares.of(cut, shares()).contendedS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void reportHasTheQueuesKindsAndTheTargetInWords() throws Exception {
    DemoResult r = run();
    ContendedShares.Figures f = ContendedShares.of(r, shares());
    DemoReport.Notes notes = new DemoReport.Notes(null, null, f);
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(r, Optional.empty(),
        Map.of("hare", notes)));
    assertEquals(5.0, o.get("contended_s").asDouble(), 1e-9);
    JsonNode q = o.get("queues");
    assertEquals(2, q.size());
    assertEquals("team-a", q.get(0).get("name").asText());
    assertEquals(0.6, q.get(0).get("guaranteed_share").asDouble(), 1e-9);
    assertEquals(4.5, q.get(0).get("contended_gpu_seconds").asDouble(), 1e-9);
    assertEquals(15.0, q.get(0).get("contended_guaranteed_gpu_seconds").asDouble(), 1e-9);
    assertEquals(4.0, q.get(0).get("contended_held_gpu_seconds").asDouble(), 1e-9);
    assertEquals(0.0, q.get(0).get("contended_lent_gpu_seconds").asDouble(), 1e-9);
    // 2 GPUs short from 2 to 5 s and 6 to 7 s, 3 from 7 to 8 s, every one of them free
    assertEquals(11.0, q.get(0).get("contended_idle_gpu_seconds").asDouble(), 1e-9);
    JsonNode jobs = o.get("jobs");
    assertEquals("hare", jobs.get(0).get("kind").asText());
    assertEquals("team-a", jobs.get(0).get("queue").asText());
    assertTrue(jobs.get(0).get("model_matches_reference").asBoolean());
    assertEquals("distributedshell", jobs.get(2).get("kind").asText());
    assertEquals("SUCCEEDED", jobs.get(2).get("final_state").asText());
    assertTrue("no model for a stock application",
        jobs.get(2).get("model_matches_reference").isNull());
    assertTrue("a stock application has no model to match", r.asExpected());

    StringWriter text = new StringWriter();
    DemoReport.printSummary(List.of(r), Map.of("hare", notes), new PrintWriter(text));
    assertTrue(text.toString(), text.toString().contains("team-b"));
    assertTrue(text.toString(), text.toString().contains("some queue's tasks ran less than 90 %"));
    assertTrue(text.toString(), text.toString().contains("every application succeeded"));
    assertTrue(text.toString(), text.toString().contains("team-a's containers lacked 11.0 GPU-s"
        + " of its guarantee: 0.0 held by other queues above their own guarantees"));
  }

  private static SchedulerJournal.Entry started(long ms, String app, String container) {
    return new SchedulerJournal.Entry(SchedulerJournal.Kind.STARTED, ms, app, container, "h",
        "v100", 0, false);
  }

  private static SchedulerJournal.Entry ended(long ms, String app, String container) {
    return new SchedulerJournal.Entry(SchedulerJournal.Kind.ENDED, ms, app, container, null,
        null, 0, true);
  }

  /**
   * Both queues wait from 0 to 10 s on 5 GPUs (team-a is promised 3, team-b 2). team-b holds 1
   * throughout; team-a 3 and the stock application 1 (a queue without a guarantee) until 4 s,
   * team-a 4 until 6 s, then 2 with 2 GPUs free.
   */
  @Test(timeout = 60_000)
  public void aShortfallIsWhatOthersHoldAboveTheirGuaranteesThenWhatIsFree() {
    DemoResult r = run();
    List<SchedulerJournal.Entry> journal = List.of(
        asks(0, A, 5), asks(0, B, 3),
        started(0, A, "a1"), started(0, A, "a2"), started(0, A, "a3"), started(0, SHELL, "s1"),
        started(0, B, "b1"),
        ended(4000, SHELL, "s1"), started(4000, A, "a4"),
        ended(6000, A, "a3"), ended(6000, A, "a4"),
        asks(10_000, A, 0), asks(10_000, B, 0));
    ContendedShares.Figures f = ContendedShares.of(new DemoResult("hare", r.jobs(), List.of(),
        List.of(), journal, r.gpusByHost(), r.typeByHost()), shares());
    assertEquals(10.0, f.contendedS(), 1e-9);
    ContendedShares.Queue a = f.queues().get(0);
    ContendedShares.Queue b = f.queues().get(1);
    // team-a: above its 3 GPUs until 6 s, then 1 short of them with 2 free
    assertEquals(0.0, a.contendedLentGpuSeconds(), 1e-9);
    assertEquals(4.0, a.contendedIdleGpuSeconds(), 1e-9);
    // team-b: 1 short, held by the stock application until 4 s and by team-a's fourth until 6
    assertEquals(6.0, b.contendedLentGpuSeconds(), 1e-9);
    assertEquals(4.0, b.contendedIdleGpuSeconds(), 1e-9);
    assertEquals(10.0, b.contendedHeldGpuSeconds(), 1e-9);
    assertEquals(b.contendedGuaranteedGpuSeconds() - b.contendedHeldGpuSeconds(),
        b.contendedLentGpuSeconds() + b.contendedIdleGpuSeconds(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void withoutQueuesTheJsonHasNone() throws Exception {
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(run(), Optional.empty()));
    assertFalse(o.has("queues"));
    assertFalse(o.has("contended_s"));
  }
}
