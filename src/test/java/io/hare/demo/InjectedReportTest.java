package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.Test;

/** What the demo's JSON and text say of injected faults, on a made-up run. */
public class InjectedReportTest {

  private static DemoResult run() {
    List<DemoResult.Job> jobs = List.of(
        new DemoResult.Job("application_1_0001", "a", 1, "resnet50", 2, 1, 1000, 9000,
            "SUCCEEDED", true, ""),
        new DemoResult.Job("application_1_0002", "always-fails", 1, "graphsage", 1, 1, 1000,
            4000, "FAILED", false, "round 0 task 0 failed 3 times; last attempt: exit code 7"
                + "\nContainer id: c\nExit code: 7"));
    List<DemoResult.Task> tasks = List.of(
        new DemoResult.Task("application_1_0001", 0, 0, "h1", "v100", 0,
            "container_1_0001_01_000002", 2000, -1, "LOST", -1),
        new DemoResult.Task("application_1_0002", 0, 0, "h2", "t4", 0,
            "container_1_0002_01_000002", 2100, 2200, "FAILED", 7),
        new DemoResult.Task("application_1_0001", 0, 0, "h2", "t4", 0,
            "container_1_0001_01_000003", 5000, 6000, "SUCCEEDED", 0));
    List<Injected> injected = List.of(
        new Injected("node-loss", 3000, "stopped the NodeManager on h1", List.of(
            "container_1_0001_01_000002")),
        new Injected("rm-restart", -1, "not injected: the jobs ended first", List.of()));
    return new DemoResult("hare", jobs, tasks, List.of(), List.of(), Map.of("h1", 1, "h2", 1),
        Map.of("h1", "v100", "h2", "t4"), injected, Set.of("always-fails"));
  }

  @Test(timeout = 60_000)
  public void jsonListsTheInjectedFaultsAndEveryAttemptWithItsState() throws Exception {
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(run(), Optional.empty()));
    JsonNode i = o.get("injected");
    assertEquals(2, i.size());
    assertEquals("node-loss", i.get(0).get("fault").asText());
    assertEquals(3000, i.get(0).get("at_ms").asLong());
    assertEquals("stopped the NodeManager on h1", i.get(0).get("detail").asText());
    assertEquals("container_1_0001_01_000002", i.get(0).get("containers").get(0).asText());
    assertTrue("never injected: no time", i.get(1).get("at_ms").isNull());
    JsonNode tasks = o.get("tasks");
    assertEquals(List.of("LOST", "FAILED", "SUCCEEDED"), List.of(tasks.get(0).get("state")
        .asText(), tasks.get(1).get("state").asText(), tasks.get(2).get("state").asText()));
    assertTrue(tasks.get(0).get("exit_code").isNull());
    assertEquals(7, tasks.get(1).get("exit_code").asInt());
    JsonNode failing = o.get("jobs").get(1);
    assertTrue(failing.get("made_to_fail").asBoolean());
    assertTrue(failing.get("diagnostics").asText().contains("exit code 7\nContainer id"));
    assertFalse(o.get("jobs").get(0).get("made_to_fail").asBoolean());
  }

  @Test(timeout = 60_000)
  public void withoutFaultsTheListIsEmpty() throws Exception {
    DemoResult plain = new DemoResult("hare", run().jobs(), run().tasks(), List.of(), List.of(),
        Map.of("h1", 1, "h2", 1), Map.of("h1", "v100", "h2", "t4"));
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(plain, Optional.empty()));
    assertEquals(0, o.get("injected").size());
  }

  @Test(timeout = 60_000)
  public void textListsWhatWasInjectedWhenAndTheFailedJobsFirstDiagnosticLine() {
    StringWriter w = new StringWriter();
    DemoReport.printJobs(run(), new PrintWriter(w, true));
    String text = w.toString();
    assertTrue(text, text.contains("injected faults (1 task attempts failed, 1 lost):"));
    assertTrue(text, text.contains("2.0 s  node-loss    stopped the NodeManager on h1"));
    assertTrue(text, text.contains("-  rm-restart   not injected"));
    assertTrue(text, text.contains("FAILED*"));
    assertTrue(text, text.contains("always-fails FAILED: round 0 task 0 failed 3 times; last"
        + " attempt: exit code 7 ..."));
    assertFalse(text, text.contains("Container id"));
  }

  @Test(timeout = 60_000)
  public void aRunIsAsExpectedWhenOnlyTheJobsMadeToFailFailed() {
    assertTrue(run().asExpected());
    DemoResult r = run();
    DemoResult notFailing = new DemoResult(r.policy(), r.jobs(), r.tasks(), r.syncs(),
        r.journal(), r.gpusByHost(), r.typeByHost(), r.injected(), Set.of());
    assertFalse("an unexpected failure", notFailing.asExpected());
  }
}
