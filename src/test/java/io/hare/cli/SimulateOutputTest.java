package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.plan.RelaxationBound;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.report.GanttChart;
import io.hare.sim.workload.Workload;
import io.hare.testing.Workloads;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** What {@code hare simulate} prints and writes, checked against simulations run here. */
public class SimulateOutputTest {

  private static final String CLUSTER = "v100=3,t4=2,k80=3";
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  /**
   * Hand-checkable: v100=1; job a (weight 3, cnn: 100 ms compute + 20 ms sync on v100, k=1, 2
   * rounds) at 0 s ends at 240 ms; job b (weight 1, gnn: 200 + 10 ms, k=1, 1 round) at 1 s ends
   * at 1210 ms. Total weighted JCT 3 x 0.24 + 0.21 = 0.93 s.
   */
  private static Workload twoJobs() {
    return new Workload("two", List.of(new JobSpec("a", 0, 3, "cnn", 1, 2),
        new JobSpec("b", 1000, 1, "gnn", 1, 1)), Workloads.profiles());
  }

  private static JsonNode parseJson(String text) throws IOException {
    JsonNode root = JSON.readTree(text); // exactly one JSON value: trailing tokens fail
    assertTrue(root.isObject());
    return root;
  }

  private static List<String> fieldNames(JsonNode o) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  @Test(timeout = 60_000)
  public void jsonOfAHandCheckedCase() throws IOException {
    CliRun r = CliRun.run(CliRun.always(twoJobs()), Map.of(), "simulate", "--cluster", "v100=1",
        "--workload", "paper", "--policies", "yarn-fifo", "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode root = parseJson(r.out);
    assertEquals(List.of("lower_bound_total_weighted_jct_s", "results"),
        fieldNames(root).subList(0, 2));
    JsonNode res = root.get("results").get(0);
    assertEquals(List.of("policy", "total_weighted_jct_s", "avg_jct_s", "p95_jct_s", "makespan_s",
        "gpu_utilization", "jobs"), fieldNames(res).subList(0, 7));
    assertEquals("yarn-fifo", res.get("policy").asText());
    assertEquals(0.93, res.get("total_weighted_jct_s").asDouble(), 1e-9);
    assertEquals(0.225, res.get("avg_jct_s").asDouble(), 1e-9);
    assertEquals(0.24, res.get("p95_jct_s").asDouble(), 1e-9);
    assertEquals(1.21, res.get("makespan_s").asDouble(), 1e-9);
    assertEquals(0.4 / 1.21, res.get("gpu_utilization").asDouble(), 1e-9);
    assertEquals(2, res.get("jobs").asInt());
    assertEquals(0, res.get("unfinished_jobs").asInt());
    assertEquals(0, res.get("switches").asInt());
    double bound = root.get("lower_bound_total_weighted_jct_s").asDouble();
    assertTrue("a lower bound is at most what a schedule achieves", bound <= 0.93 + 1e-9);
    assertEquals(RelaxationBound.totalWeightedJctS(ClusterSpec.parse("v100=1"),
        twoJobs().jobs(), twoJobs().profiles()), bound, 1e-9);
    double critical = root.get("critical_path_total_weighted_jct_s").asDouble();
    assertTrue("the critical paths are part of the bound", critical > 0 && critical <= bound);
    assertTrue(r.toString(), CliRun.run(CliRun.always(twoJobs()), Map.of(), "simulate",
        "--cluster", "v100=1", "--workload", "paper", "--policies", "yarn-fifo").out
        .contains("(the jobs' critical paths alone: "));
  }

  @Test(timeout = 60_000)
  public void switchTimeIsPaidWhenTheGpuChangesJob() throws IOException {
    CliRun r = CliRun.run(CliRun.always(twoJobs()), Map.of(), "simulate", "--cluster", "v100=1",
        "--workload", "paper", "--policies", "yarn-fifo", "--switch-ms", "50", "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode res = parseJson(r.out).get("results").get(0);
    // b starts at 1 s after a's tasks on the only GPU: 50 ms switch, 200 ms compute, 10 ms sync
    assertEquals(3 * 0.24 + 0.26, res.get("total_weighted_jct_s").asDouble(), 1e-9);
    assertEquals(1, res.get("switches").asInt());
    assertEquals(50, parseJson(r.out).get("switch_ms").asInt());
  }

  @Test(timeout = 60_000)
  public void jsonNumbersMatchSimulationsRunHereInTheOrderGiven() throws IOException {
    CliRun r = CliRun.run("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs", "12",
        "--seed", "5", "--policies", TestingPolicies.Greedy.class.getName() + ",yarn-fifo",
        "--switch-ms", "10", "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    ClusterSpec cluster = ClusterSpec.parse(CLUSTER);
    List<JobSpec> jobs = Workloads.randomJobs(5, 12);
    ProfileTable truth = Workloads.profiles();
    Simulator sim = new Simulator(cluster, jobs, truth, new SimOptions(10, false));
    PolicyConfig cfg = new PolicyConfig(Map.of(), 5);
    List<SimResult> expected = List.of(sim.run(new TestingPolicies.Greedy(cfg)),
        sim.run(new YarnFifoPolicy(cfg)));
    JsonNode root = parseJson(r.out);
    assertEquals(2, root.get("results").size());
    for (int i = 0; i < expected.size(); i++) {
      SimResult e = expected.get(i);
      JsonNode got = root.get("results").get(i);
      assertEquals(e.policy(), got.get("policy").asText());
      assertEquals(e.totalWeightedJctS(), got.get("total_weighted_jct_s").asDouble(), 1e-9);
      assertEquals(e.avgJctS(), got.get("avg_jct_s").asDouble(), 1e-9);
      assertEquals(e.p95JctS(), got.get("p95_jct_s").asDouble(), 1e-9);
      assertEquals(e.makespanS(), got.get("makespan_s").asDouble(), 1e-9);
      assertEquals(e.gpuUtilization(), got.get("gpu_utilization").asDouble(), 1e-9);
      assertEquals(12, got.get("jobs").asInt());
      assertEquals(e.switches(), got.get("switches").asLong());
    }
    double best = Math.min(expected.get(0).totalWeightedJctS(),
        expected.get(1).totalWeightedJctS());
    assertEquals(expected.get(1).totalWeightedJctS() / best,
        root.get("results").get(1).get("ratio_to_best").asDouble(), 1e-9);
    assertEquals(RelaxationBound.totalWeightedJctS(cluster, jobs, truth),
        root.get("lower_bound_total_weighted_jct_s").asDouble(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void policySeedComesFromTheSchedulerKeyOverTheWorkloadSeed() throws IOException {
    CliRun r = CliRun.run("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs", "10",
        "--seed", "3", "--policies", "yarn-fifo", "-D", "yarn.scheduler.hare.seed=9", "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    SimResult e = new Simulator(ClusterSpec.parse(CLUSTER), Workloads.randomJobs(3, 10),
        Workloads.profiles(), new SimOptions(0, false))
        .run(new YarnFifoPolicy(new PolicyConfig(Map.of(), 9)));
    assertEquals(e.totalWeightedJctS(),
        parseJson(r.out).get("results").get(0).get("total_weighted_jct_s").asDouble(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void tableListsEveryPolicyInOrder() {
    String greedy = TestingPolicies.Greedy.class.getName();
    CliRun r = CliRun.run("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs", "8",
        "--policies", "yarn-fifo," + greedy);
    assertEquals(r.toString(), HareCommand.OK, r.code);
    int fifo = r.out.indexOf("\nyarn-fifo ");
    int gr = r.out.indexOf("\n" + TestingPolicies.Greedy.NAME + " ");
    assertTrue(r.out, fifo > 0 && gr > fifo);
    for (String col : new String[] {"total wJCT s", "x best", "x bound", "avg JCT s", "p95 JCT s",
        "makespan s", "GPU util", "jobs", "unfinished", "replan avg ms", "replan max ms"}) {
      assertTrue("column " + col + "\n" + r.out, r.out.contains(col));
    }
    assertTrue(r.out, r.out.contains("lower bound on total weighted JCT"));
  }

  @Test(timeout = 60_000)
  public void outWritesValidPicturesJsonAndPerJobCsv() throws IOException {
    Path dir = tmp.getRoot().toPath().resolve("new/sub dir");
    String greedy = TestingPolicies.Greedy.class.getName();
    CliRun r = CliRun.run(CliRun.always(twoJobs()), Map.of(), "simulate", "--cluster", "v100=1",
        "--workload", "paper", "--policies", "yarn-fifo," + greedy, "--json", "--out",
        dir.toString());
    assertEquals(r.toString(), HareCommand.OK, r.code);
    assertEquals(parseJson(r.out), parseJson(Files.readString(dir.resolve("results.json"))));
    for (String png : new String[] {"jct-cdf.png", "gantt-yarn-fifo.png",
        "gantt-" + TestingPolicies.Greedy.NAME + ".png"}) {
      BufferedImage img = ImageIO.read(dir.resolve(png).toFile());
      assertNotNull(png + " is a readable image", img);
      assertTrue(png, img.getWidth() >= 800 && img.getHeight() >= 200);
    }
    assertEquals(GanttChart.sizeFor(1)[1],
        ImageIO.read(dir.resolve("gantt-yarn-fifo.png").toFile()).getHeight());
    List<String> csv = Files.readAllLines(dir.resolve("jobs-yarn-fifo.csv"));
    assertEquals(List.of("job_id,weight,model,k,rounds,arrival_s,completion_s,jct_s",
        "a,3.0,cnn,1,2,0.000,0.240,0.240", "b,1.0,gnn,1,1,1.000,1.210,0.210"), csv);
    assertTrue(Files.exists(dir.resolve("jobs-" + TestingPolicies.Greedy.NAME + ".csv")));
  }

  @Test(timeout = 60_000)
  public void phillyPathsFollowOptionThenKeyThenEnvironment() {
    CliRun.FixtureSources src = new CliRun.FixtureSources();
    Path csv = tmp.getRoot().toPath().resolve("p.csv");
    Path json = tmp.getRoot().toPath().resolve("g.json");
    Path envCsv = tmp.getRoot().toPath().resolve("env.csv");
    try {
      Files.writeString(csv, "x");
      Files.writeString(json, "{}");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    CliRun r = CliRun.run(src, Map.of(DataPaths.ENV_PHILLY_CSV, envCsv.toString()), "simulate",
        "--cluster", CLUSTER, "--workload", "philly", "--jobs", "3", "--policies", "yarn-fifo",
        "-D", DataPaths.PHILLY_CSV + "=" + csv, "--gavel-json", json.toString());
    assertEquals(r.toString(), HareCommand.OK, r.code);
    assertEquals(List.of("philly " + csv + " " + json + " 3"), src.calls);
  }
}
