package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * {@code hare demo --tenants --json} as a user runs it ({@code dist/bin/hare}, its own JVM), on
 * a small workload: four Hare jobs in queues team-a (0.6 of the 5 GPUs) and team-b (0.4) and a
 * stock distributedshell in default. Every application succeeds, every Hare model equals its
 * reference, and the {@code queues} figures are there and agree with each other.
 *
 * <p>Whether each queue's tasks ran 90 % of their contended guarantee is not asserted: the
 * tasks' own run time leaves out each container's launch and its worker's start, which on a
 * loaded 2-core machine take longer than these tasks (runs of the default workload there gave
 * 32-74 % for the tasks, while the scheduler held 81-120 % of the guarantee in containers). The
 * figures of full runs are in docs/queues.md.
 */
public class DemoTenantsIT {

  @ClassRule
  public static final Timeout RUN = Timeout.seconds(480);

  private static final int GPUS = 5;

  private static int exit;
  private static JsonNode json;
  private static String stderr;

  @BeforeClass
  public static void runTheCommand() throws Exception {
    File base = GenericTestUtils.getTestDir("DemoTenantsIT");
    FileUtil.fullyDelete(base);
    Files.createDirectories(base.toPath());
    Path out = base.toPath().resolve("stdout.json");
    Path err = base.toPath().resolve("stderr.txt");
    Process p = new ProcessBuilder("dist/bin/hare", "demo", "--tenants", "--json", "--jobs", "4",
        "--task-ms", "500", "--gap-ms", "300", "--heartbeat-ms", "100", "--nodes",
        "v100=1,t4=2,k80=2", "--timeout-s", "300", "--out",
        base.toPath().resolve("out").toString())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(420, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("hare demo did not end within 420 s; see " + err);
    }
    exit = p.exitValue();
    stderr = Files.readString(err, StandardCharsets.UTF_8);
    json = new ObjectMapper().readTree(out.toFile());
  }

  @Test(timeout = 10_000)
  public void everyApplicationSucceedsAndEveryHareModelMatches() {
    assertEquals(tail(), 0, exit);
    List<String> kinds = new ArrayList<>();
    for (JsonNode j : json.get("jobs")) {
      String kind = j.get("kind").asText();
      kinds.add(kind);
      assertEquals(j.toString(), "SUCCEEDED", j.get("final_state").asText());
      if (kind.equals("hare")) {
        assertTrue(j.toString(), j.get("model_matches_reference").asBoolean());
        assertTrue(j.toString(), List.of("team-a", "team-b")
            .contains(j.get("queue").asText()));
      } else {
        assertEquals(j.toString(), "distributedshell", kind);
        assertEquals(j.toString(), "default", j.get("queue").asText());
        assertTrue(j.toString(), j.get("model_matches_reference").isNull());
      }
    }
    assertEquals(kinds.toString(), 4, kinds.stream().filter("hare"::equals).count());
    assertEquals(kinds.toString(), 1, kinds.stream().filter("distributedshell"::equals).count());
  }

  @Test(timeout = 10_000)
  public void theQueuesFiguresArePresentAndConsistent() {
    JsonNode queues = json.get("queues");
    assertEquals(queues.toString(), 2, queues.size());
    double contendedS = json.get("contended_s").asDouble();
    double makespanS = (json.get("jobs").findValues("finish_ms").stream()
        .mapToLong(JsonNode::asLong).max().orElseThrow() - json.get("jobs")
        .findValues("submit_ms").stream().mapToLong(JsonNode::asLong).min().orElseThrow())
        / 1000.0;
    assertTrue("both queues had GPU tasks waiting at once: " + json.get("contended_s"),
        contendedS > 0);
    assertTrue(contendedS + " s within the run's " + makespanS + " s", contendedS <= makespanS);
    double ranAll = 0;
    List<String> names = new ArrayList<>();
    for (JsonNode q : queues) {
      names.add(q.get("name").asText());
      double share = q.get("guaranteed_share").asDouble();
      double ran = q.get("contended_gpu_seconds").asDouble();
      double held = q.get("contended_held_gpu_seconds").asDouble();
      assertEquals(q.toString(), share * GPUS * contendedS,
          q.get("contended_guaranteed_gpu_seconds").asDouble(), 1e-6);
      assertTrue(q.toString(), ran >= 0);
      // a task runs inside its container: the scheduler held that GPU at least as long (a
      // second for the two clocks' resolution and the RM hearing of a container's end)
      assertTrue("tasks within their containers: " + q, ran <= held + 1.0);
      // what the containers lacked, moment by moment, is at least the promise less what they
      // held over the windows (times above the guarantee offset none of it), and at most it
      double lacked = q.get("contended_lent_gpu_seconds").asDouble()
          + q.get("contended_idle_gpu_seconds").asDouble();
      double promised = share * GPUS * contendedS;
      assertTrue("shortfall at least the promise less the held: " + q,
          lacked >= promised - held - 1e-6);
      assertTrue("shortfall at most the promise: " + q, lacked <= promised + 1e-6);
      ranAll += ran;
    }
    assertEquals(List.of("team-a", "team-b"), names);
    assertEquals(0.6, queues.get(0).get("guaranteed_share").asDouble(), 1e-9);
    assertEquals(0.4, queues.get(1).get("guaranteed_share").asDouble(), 1e-9);
    assertTrue("no more GPU-seconds than the GPUs had: " + queues,
        ranAll <= GPUS * contendedS + 1.0);
  }

  private static String tail() {
    return stderr.substring(Math.max(0, stderr.length() - 4000));
  }
}
