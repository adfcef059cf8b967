package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.List;
import org.junit.Test;

/**
 * {@code hare bench} and {@code hare bench scheduler}: bad options exit 2 naming the option,
 * {@code --json} prints exactly one object with the issue's fields first.
 */
public class BenchCommandTest {

  private static final List<String> FIELDS = List.of("hare_allocations_per_s",
      "capacity_allocations_per_s", "hare_heartbeat_p50_ms", "hare_heartbeat_p99_ms",
      "capacity_heartbeat_p99_ms", "hare_replan_ms", "hare_state_heap_mb");

  private static CliRun badInput(String option, String... args) {
    CliRun r = CliRun.run(args);
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertEquals("nothing on stdout\n" + r, "", r.out);
    assertTrue("stderr names " + option + "\n" + r, r.err.contains(option));
    assertFalse("no stack trace\n" + r, r.err.contains("\tat "));
    return r;
  }

  @Test(timeout = 60_000)
  public void badOptionsExit2NamingTheOption() {
    badInput("--nodes", "bench", "scheduler", "--nodes", "0");
    badInput("--jobs", "bench", "scheduler", "--jobs", "-3");
    badInput("--gpus-per-node", "bench", "scheduler", "--gpus-per-node", "65");
    badInput("--churn-ticks", "bench", "scheduler", "--churn-ticks", "0");
    badInput("--warmup-ticks", "bench", "scheduler", "--warmup-ticks", "-1");
    badInput("--nodes", "bench", "scheduler", "--nodes", "many");
    badInput("--schedulers", "bench", "scheduler", "--schedulers", "hare,fair");
    badInput("--schedulers", "bench", "scheduler", "--schedulers", "hare,hare");
    badInput("--no-such", "bench", "scheduler", "--no-such");
    badInput("--arrivals-per-tick", "bench", "scheduler", "--arrivals-per-tick", "-1");
  }

  @Test(timeout = 60_000)
  public void benchAloneListsItsBenchmarksAndExits2() {
    CliRun r = CliRun.run("bench");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("scheduler"));
    CliRun help = CliRun.run("bench", "scheduler", "--help");
    assertEquals(help.toString(), HareCommand.OK, help.code);
    assertTrue(help.toString(), help.out.contains("--gpus-per-node")
        && help.out.contains("--churn-ticks") && help.out.contains("--json"));
  }

  @Test(timeout = 600_000)
  public void jsonIsOneObjectWithTheIssuesFieldsFirst() throws Exception {
    CliRun r = CliRun.run("bench", "scheduler", "--nodes", "4", "--gpus-per-node", "2",
        "--jobs", "6", "--warmup-ticks", "1", "--churn-ticks", "3", "--arrivals-per-tick", "1",
        "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    ObjectMapper m = new ObjectMapper();
    JsonNode o = m.readTree(r.out);
    assertTrue(r.out, o.isObject());
    Iterator<String> names = o.fieldNames();
    for (String f : FIELDS) {
      assertEquals("field order", f, names.next());
      assertTrue(f + " is a number: " + o.get(f), o.get(f).isNumber());
    }
    assertTrue(o.get("hare_allocations_per_s").asDouble() > 0);
    assertTrue(o.get("capacity_allocations_per_s").asDouble() > 0);
    assertEquals(4, o.get("nodes").asInt());
    assertEquals(1, o.get("arrivals_per_tick").asInt());
    assertTrue("the fill's re-plan and the arrivals' " + o.get("hare_replans"),
        o.get("hare_replans").asInt() >= 2);
    assertEquals(0, o.get("hare_violations").asInt());
    assertEquals(0, o.get("capacity_violations").asInt());
    int documents = 0;
    for (Iterator<JsonNode> it = m.readerFor(JsonNode.class).readValues(r.out); it.hasNext();
        it.next()) {
      documents++;
    }
    assertEquals("one JSON document on stdout", 1, documents);
  }
}
