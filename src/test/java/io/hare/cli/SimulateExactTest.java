package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.JobSpec;
import io.hare.core.plan.ExactSolver;
import io.hare.sim.workload.Workload;
import io.hare.testing.Fig1;
import io.hare.testing.Workloads;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** {@code hare simulate --exact}: the proven optimum beside the bound, and what it refuses. */
public class SimulateExactTest {

  private static final Workload FIG1 = new Workload("fig1", Fig1.jobs(), Fig1.profiles());

  @Test(timeout = 60_000)
  public void fig1PrintsTheProvenOptimumBesideTheBound() throws Exception {
    CliRun r = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=1,g2=1,g3=1", "--workload", "paper", "--policies", "hare,allox", "--exact");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    assertTrue(r.out, r.out.contains("exact optimum (CP-SAT, proven in "));
    assertTrue(r.out, r.out.contains("): 7.5 s"));
    // the line follows the bound's; hare, with its exact plans of small states, reaches it
    // (8.0 s, 1.067x, without them), allox (11.5 s) is 1.533x
    String[] lines = r.out.split("\\R");
    assertTrue(lines[1].startsWith("lower bound"));
    assertTrue(lines[2].startsWith("exact optimum"));
    assertTrue(r.out, r.out.contains("x optimum"));
    assertTrue(r.out, r.out.matches("(?s).*\\nhare +7\\.5 +1\\.000 +[0-9.]+ +1\\.000 .*"));
    assertTrue(r.out, r.out.matches("(?s).*\\nallox +11\\.5 +1\\.533 +[0-9.]+ +1\\.533 .*"));

    CliRun j = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=1,g2=1,g3=1", "--workload", "paper", "--policies", "hare", "--exact", "--json");
    assertEquals(j.toString(), HareCommand.OK, j.code);
    JsonNode root = new ObjectMapper().readTree(j.out);
    JsonNode e = root.get("exact");
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S, e.get("total_weighted_jct_s").asDouble(), 1e-9);
    assertTrue(e.get("proven").asBoolean());
    assertEquals(Fig1.OPTIMAL_TOTAL_JCT_S, e.get("lower_bound_s").asDouble(), 1e-9);
    double hare = root.get("results").get(0).get("total_weighted_jct_s").asDouble();
    assertEquals(hare / Fig1.OPTIMAL_TOTAL_JCT_S,
        root.get("results").get(0).get("ratio_to_exact").asDouble(), 1e-9);
    assertTrue(root.get("lower_bound_total_weighted_jct_s").asDouble()
        <= Fig1.OPTIMAL_TOTAL_JCT_S + 1e-9);
  }

  @Test(timeout = 60_000)
  public void withoutExactThereIsNoLineAndNoColumn() {
    CliRun r = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=1,g2=1,g3=1", "--workload", "paper", "--policies", "hare");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    assertFalse(r.out, r.out.contains("exact optimum"));
    assertFalse(r.out, r.out.contains("x optimum"));
  }

  @Test(timeout = 60_000)
  public void aWorkloadOverTheLimitIsRefusedBeforeAnySimulationWithTheLimitNamed() {
    // 101 tasks: one over the limit
    Workload big = new Workload("big", List.of(new JobSpec("a", 0, 1, "cnn", 1, 1),
        new JobSpec("b", 0, 1, "cnn", 4, 25)), Workloads.profiles());
    CliRun r = CliRun.run(CliRun.always(big), Map.of(), "simulate", "--cluster", "v100=2",
        "--workload", "paper", "--policies", "hare", "--exact");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.err, r.err.contains("--exact: exact solver: instance too big: 101 tasks"));
    assertTrue(r.err, r.err.contains("the limit is " + ExactSolver.MAX_TASKS + " tasks"));
    assertTrue(r.err, r.err.contains(ExactSolver.MAX_GPUS + " GPUs"));
    assertFalse("no simulation ran", r.out.contains("policy"));

    CliRun gpus = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=33,g2=1,g3=1", "--workload", "paper", "--policies", "hare", "--exact");
    assertEquals(gpus.toString(), HareCommand.BAD_INPUT, gpus.code);
    assertTrue(gpus.err, gpus.err.contains("35 GPUs"));
  }

  @Test(timeout = 60_000)
  public void timesTheSolverDoesNotModelAreRefused() {
    CliRun sw = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=1,g2=1,g3=1", "--workload", "paper", "--policies", "hare", "--exact",
        "--switch-ms", "5");
    assertEquals(sw.toString(), HareCommand.BAD_INPUT, sw.code);
    assertTrue(sw.err, sw.err.contains("--switch-ms 0"));
    CliRun noise = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=1,g2=1,g3=1", "--workload", "paper", "--policies", "hare", "--exact", "-D",
        "yarn.hare.sim.profile-noise=0.5");
    assertEquals(noise.toString(), HareCommand.BAD_INPUT, noise.code);
    assertTrue(noise.err, noise.err.contains("profile-noise"));
    CliRun limit = CliRun.run(CliRun.always(FIG1), Map.of(), "simulate", "--cluster",
        "g1=1,g2=1,g3=1", "--workload", "paper", "--policies", "hare", "--exact",
        "--exact-time-limit-s", "0");
    assertEquals(limit.toString(), HareCommand.BAD_INPUT, limit.code);
    assertTrue(limit.err, limit.err.contains("--exact-time-limit-s: must be finite and > 0"));
  }
}
