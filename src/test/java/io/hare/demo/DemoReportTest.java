package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The demo's JSON (the field names), its tables and its pictures, on a made-up run. */
public class DemoReportTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  static DemoResult run(String policy, long jct) {
    List<DemoResult.Job> jobs = List.of(
        new DemoResult.Job("application_1_0001", "a", 2, "resnet50", 2, 1, 1000, 1000 + jct,
            "SUCCEEDED", true),
        new DemoResult.Job("application_1_0002", "b", 1, "graphsage", 1, 2, 1500, 9000,
            "FAILED", false));
    List<DemoResult.Task> tasks = List.of(
        new DemoResult.Task("application_1_0001", 0, 0, "127.0.0.2", "v100", 0, "c1", 2000,
            3000, "SUCCEEDED", 0, -1, "0"),
        new DemoResult.Task("application_1_0002", 0, 1, "127.0.0.3", "t4", 1, "c2", 2500, -1,
            "LOST"));
    return new DemoResult(policy, jobs, tasks, List.of(), List.of(),
        Map.of("127.0.0.2", 1, "127.0.0.3", 2), Map.of("127.0.0.2", "v100", "127.0.0.3", "t4"));
  }

  @Test(timeout = 60_000)
  public void totalWeightedJctIsTheWeightedSumOfSubmitToFinish() {
    assertEquals(2 * 4.0 + 1 * 7.5, run("hare", 4000).totalWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void jsonHasTheDocumentedFieldsAndTheComparedRun() throws Exception {
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(run("hare", 4000),
        Optional.of(run("yarn-fifo", 8000))));
    assertEquals("hare", o.get("policy").asText());
    assertEquals(15.5, o.get("total_weighted_jct_s").asDouble(), 1e-9);
    JsonNode job = o.get("jobs").get(0);
    for (String f : List.of("app_id", "name", "weight", "model", "rounds", "tasks_per_round",
        "submit_ms", "finish_ms", "final_state", "model_matches_reference")) {
      assertTrue("jobs[0]." + f, job.has(f));
    }
    assertEquals(1000, job.get("submit_ms").asLong());
    assertTrue(job.get("model_matches_reference").asBoolean());
    JsonNode task = o.get("tasks").get(0);
    for (String f : List.of("app_id", "round", "index", "node", "gpu_type", "container_id",
        "start_ms", "end_ms", "state")) {
      assertTrue("tasks[0]." + f, task.has(f));
    }
    assertTrue("a lost task has no end", o.get("tasks").get(1).get("end_ms").isNull());
    assertEquals("the device the task saw", "0", task.get("gpu_device").asText());
    assertTrue("none seen", o.get("tasks").get(1).get("gpu_device").isNull());
    assertEquals("yarn-fifo", o.get("compare").get("policy").asText());
    assertEquals(23.5, o.get("compare").get("total_weighted_jct_s").asDouble(), 1e-9);
    assertTrue(!o.get("compare").has("compare"));
  }

  @Test(timeout = 60_000)
  public void summaryComparesEachRunWithTheFirst() {
    StringWriter w = new StringWriter();
    DemoReport.printSummary(List.of(run("hare", 4000), run("yarn-fifo", 8000)),
        new PrintWriter(w, true));
    String text = w.toString();
    assertTrue(text, text.contains("yarn-fifo"));
    assertTrue(text, text.contains("1.52")); // 23.5 / 15.5
    assertTrue(text, text.contains("1/2")); // one job of two succeeded
  }

  @Test(timeout = 60_000)
  public void picturesAreWrittenWithAPageThatShowsThem() throws Exception {
    Path dir = tmp.getRoot().toPath();
    List<Path> written = DemoPictures.write(dir, List.of(run("hare", 4000)), "tables");
    assertEquals(List.of(dir.resolve("placements-hare.png"), dir.resolve("index.html")),
        written);
    assertTrue(Files.size(written.get(0)) > 1000);
    String page = Files.readString(written.get(1));
    assertTrue(page, page.contains("<img src=\"placements-hare.png\""));
    assertTrue(page, page.contains("tables"));
  }
}
