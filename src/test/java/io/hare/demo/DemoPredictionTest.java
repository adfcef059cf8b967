package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.core.queues.QueueShares;
import io.hare.embedded.EmbeddedCluster;
import io.hare.sim.SimResult;
import io.hare.yarn.scheduler.HareSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/** The demo's simulated prediction: the simulator on the demo's workload, cluster and profile. */
public class DemoPredictionTest {

  static SchedulingPolicy policy(String name) throws ConfigException {
    Configuration c = new Configuration(false);
    c.set(SchedulerKeys.POLICY, name);
    return HareSettings.read(c).newPolicy();
  }

  @Test(timeout = 60_000)
  public void oneJobOnOneV100TakesItsRoundsOfTaskAndSyncTimes() throws Exception {
    // a task: 100 ms start-up at half a core, then 1000 ms paced x 1.0 on a V100 = 1200 ms;
    // a round: its k tasks one after another on the one GPU, then the 300 ms sync
    DemoProfiles profiles = new DemoProfiles(100, 0.5, 300);
    List<EmbeddedCluster.Node> v100 = List.of(new EmbeddedCluster.Node("v100", 1));
    for (String p : List.of("hare", "yarn-fifo")) {
      DemoJob one = new DemoJob("a", DemoModel.RESNET50, 2, 2, 1, 0, 1);
      SimResult r = DemoPrediction.simulate(List.of(one), v100, profiles.table(1000), policy(p));
      assertEquals(p, 2 * (2 * (1200 + 300)) / 1000.0, r.totalWeightedJctS(), 1e-9);

      DemoJob two = new DemoJob("b", DemoModel.RESNET50, 3, 2, 2, 0, 1);
      r = DemoPrediction.simulate(List.of(two), v100, profiles.table(1000), policy(p));
      assertEquals(p, 3 * (2 * (2 * 1200 + 300)) / 1000.0, r.totalWeightedJctS(), 1e-9);
    }
  }

  @Test(timeout = 60_000)
  public void aSlowerTypeTakesTheModelsSlowdownAndALaterSubmissionCountsFromItsOwn()
      throws Exception {
    DemoProfiles profiles = new DemoProfiles(0, 1, 0);
    List<EmbeddedCluster.Node> k80 = List.of(new EmbeddedCluster.Node("k80", 1));
    DemoJob late = new DemoJob("a", DemoModel.GRAPHSAGE, 1, 1, 1, 5000, 1);
    SimResult r = DemoPrediction.simulate(List.of(late), k80, profiles.table(1000),
        policy("yarn-fifo"));
    assertEquals(2.2, r.totalWeightedJctS(), 1e-9); // 2.2 x 1000 ms, from its submission
  }

  @Test(timeout = 60_000)
  public void aJobsStartUpDelaysItsFirstTasksAndResidentWorkersStartNoProcessPerTask()
      throws Exception {
    DemoProfiles resident = new DemoProfiles(100, 0.5, 300).resident();
    List<EmbeddedCluster.Node> v100 = List.of(new EmbeddedCluster.Node("v100", 1));
    DemoJob one = new DemoJob("a", DemoModel.RESNET50, 2, 2, 1, 0, 1);
    SimResult r = DemoPrediction.simulate(List.of(one), v100, resident.table(1000),
        policy("hare"), 4000);
    // 4 s to start, then 2 rounds of a 1000 ms task (no process start-up) and a 300 ms sync
    assertEquals(2 * (4000 + 2 * (1000 + 300)) / 1000.0, r.totalWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void withQueuesEachQueueKeepsItsGuaranteeAsTheSchedulerDoes() throws Exception {
    // two V100s, 1 s tasks; b's job (weight 8) ranks first, a's waits for a's guarantee
    DemoProfiles profiles = new DemoProfiles(0, 1, 0);
    List<EmbeddedCluster.Node> v100 = List.of(new EmbeddedCluster.Node("v100", 2));
    List<DemoJob> jobs = List.of(new DemoJob("a1", DemoModel.RESNET50, 1, 1, 2, 0, 1, "a"),
        new DemoJob("b1", DemoModel.RESNET50, 8, 1, 2, 0, 2, "b"));
    SimResult one = DemoPrediction.simulate(jobs, v100, profiles.table(1000), policy("hare"), 0);
    assertEquals("one queue: b1 takes both GPUs (1 s), then a1 (2 s)", 8 * 1 + 2,
        one.totalWeightedJctS(), 1e-9);
    QueueShares halves = QueueShares.read(new PolicyConfig(Map.of(SchedulerKeys.QUEUES, "a,b",
        SchedulerKeys.QUEUE_PREFIX + "a.guaranteed-gpu-share", "0.5",
        SchedulerKeys.QUEUE_PREFIX + "b.guaranteed-gpu-share", "0.5"), 0));
    SimResult two = DemoPrediction.simulate(jobs, v100, profiles.table(1000), policy("hare"), 0,
        halves);
    assertEquals("a GPU each: both end at 2 s", 8 * 2 + 2, two.totalWeightedJctS(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void theTablesPlaceMatchesTheProfileTheSchedulerIsGiven() throws Exception {
    DemoProfiles profiles = new DemoProfiles(300, 0.25, 900);
    java.nio.file.Path f = java.nio.file.Files.createTempFile("profiles", ".csv");
    try {
      profiles.write(f, 1500);
      io.hare.core.profile.ProfileTable read = io.hare.core.profile.ProfileCsv.read(f);
      for (DemoModel m : DemoModel.ALL) {
        for (String type : DemoModel.TYPES) {
          io.hare.core.GpuType t = io.hare.core.GpuType.of(type);
          assertEquals(read.times(m.name(), t), profiles.table(1500).times(m.name(), t));
          assertEquals(Math.round(profiles.taskMs(m, type, 1500)),
              profiles.table(1500).times(m.name(), t).computeMs(), 0);
        }
      }
    } finally {
      java.nio.file.Files.delete(f);
    }
  }

  @Test(timeout = 60_000)
  public void theJsonAndTheSummaryCarryEachPolicysSimulatedTotal() throws Exception {
    Map<String, DemoReport.Notes> notes = Map.of("hare", new DemoReport.Notes(12.5, null),
        "yarn-fifo", new DemoReport.Notes(20.25, null));
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(DemoReportTest.run("hare", 4000),
        Optional.of(DemoReportTest.run("yarn-fifo", 8000)), notes));
    assertEquals(12.5, o.get("simulated_total_weighted_jct_s").asDouble(), 0);
    assertEquals(20.25, o.get("compare").get("simulated_total_weighted_jct_s").asDouble(), 0);
    JsonNode none = new ObjectMapper().readTree(DemoReport.json(DemoReportTest.run("hare", 4000),
        Optional.empty()));
    assertTrue("the key is there, null, without a prediction",
        none.has("simulated_total_weighted_jct_s")
            && none.get("simulated_total_weighted_jct_s").isNull());
    StringWriter text = new StringWriter();
    DemoReport.printSummary(List.of(DemoReportTest.run("hare", 4000),
        DemoReportTest.run("yarn-fifo", 8000)), notes, new PrintWriter(text, true));
    assertTrue(text.toString(), text.toString().contains("hare 12.5 s, yarn-fifo 20.3 s"));
  }

  @Test(timeout = 60_000)
  public void theJsonSaysHowManyNodesTheReplayMatchedOrWhyItDidNotRun() throws Exception {
    Replay.Outcome two = new Replay.Outcome(List.of(
        new Replay.NodeOrder("127.0.0.2", List.of("a/r0"), List.of("a/r0"), List.of(0L),
            List.of(0L)),
        new Replay.NodeOrder("127.0.0.3", List.of("a/r0", "b/r0"), List.of("b/r0", "a/r0"),
            List.of(0L, 5L), List.of(0L, 5L))), null);
    Map<String, DemoReport.Notes> notes = Map.of(
        "hare", new DemoReport.Notes(12.5, null, null, two),
        "yarn-fifo", new DemoReport.Notes(null, null, null,
            new Replay.Outcome(List.of(), "faults were injected")));
    JsonNode o = new ObjectMapper().readTree(DemoReport.json(DemoReportTest.run("hare", 4000),
        Optional.of(DemoReportTest.run("yarn-fifo", 8000)), notes));
    assertEquals(2, o.get("replay").get("nodes").asInt());
    assertEquals(1, o.get("replay").get("same_nodes").asInt());
    assertTrue(o.get("replay").get("not_replayed").isNull());
    JsonNode c = o.get("compare").get("replay");
    assertEquals(0, c.get("nodes").asInt());
    assertEquals("faults were injected", c.get("not_replayed").asText());
    JsonNode none = new ObjectMapper().readTree(DemoReport.json(DemoReportTest.run("hare", 4000),
        Optional.empty()));
    assertTrue("null without a replay", none.get("replay").isNull());
  }
}
