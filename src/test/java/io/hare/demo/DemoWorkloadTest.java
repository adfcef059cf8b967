package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.sim.SimResult;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;

public class DemoWorkloadTest {

  @Test(timeout = 60_000)
  public void slowdownsComeFromThePapersSpeedUpsOverAK80() {
    assertEquals(1.0, DemoModel.RESNET50.slowdown("v100"), 0);
    assertEquals(6.9 / 2.2, DemoModel.RESNET50.slowdown("t4"), 1e-12);
    assertEquals(6.9, DemoModel.RESNET50.slowdown("k80"), 1e-12);
    assertEquals(2.2 / 1.95, DemoModel.GRAPHSAGE.slowdown("t4"), 1e-12);
    assertEquals("v100=1.000,t4=1.128,k80=2.200", DemoModel.GRAPHSAGE.typeFactors());
    assertEquals(DemoModel.LSTM, DemoModel.byName("lstm"));
  }

  @Test(timeout = 60_000)
  public void jobsAreSubmittedAGapApartAndALargerWorkloadRepeatsWithNewSeedsAndNames() {
    List<DemoJob> jobs = DemoWorkload.jobs(20, 1000);
    assertEquals(20, jobs.size());
    Set<String> names = new HashSet<>();
    Set<Integer> seeds = new HashSet<>();
    for (int i = 0; i < jobs.size(); i++) {
      assertEquals(i * 1000L, jobs.get(i).submitAtMs());
      names.add(jobs.get(i).name());
      seeds.add(jobs.get(i).seed());
    }
    assertEquals("names are unique", 20, names.size());
    assertEquals("seeds are unique", 20, seeds.size());
    assertEquals(jobs.get(0).model(), jobs.get(8).model());
    assertTrue(jobs.get(8).name().endsWith("-2"));
  }

  @Test(timeout = 60_000)
  public void theWorkloadMixesModelsWeightsAndScales() {
    List<DemoJob> jobs = DemoWorkload.jobs(DemoWorkload.DEFAULT_JOBS, 0);
    assertEquals(DemoModel.ALL.size(), jobs.stream().map(DemoJob::model).distinct().count());
    assertTrue(jobs.stream().map(DemoJob::weight).distinct().count() >= 3);
    assertTrue(jobs.stream().map(DemoJob::tasksPerRound).distinct().count() >= 2);
  }

  /**
   * The default workload on the default cluster: the simulator, running the policy core on the
   * demo's own profile, predicts yarn-fifo's total weighted JCT at least 1.4x hare's, whether the
   * machine is a loaded 2-core one (a task process 0.56 or 0.8 s alone, a third of a core each
   * with every GPU busy, the sync 2-3 s), a quiet one, or costs nothing at all.
   */
  @Test(timeout = 60_000)
  public void theSimulatorPredictsHareAtLeast1_4TimesBetterThanYarnFifoOnTheDefaults()
      throws Exception {
    List<EmbeddedCluster.Node> nodes = new java.util.ArrayList<>();
    for (String n : DemoWorkload.DEFAULT_NODES.split(",")) {
      nodes.add(new EmbeddedCluster.Node(n.split("=")[0], Integer.parseInt(n.split("=")[1])));
    }
    List<DemoJob> jobs = DemoWorkload.jobs(DemoWorkload.DEFAULT_JOBS,
        DemoWorkload.DEFAULT_GAP_MS);
    for (DemoProfiles p : List.of(new DemoProfiles(562, 1 / 3.0, 2086),
        new DemoProfiles(800, 1 / 3.0, 2800), new DemoProfiles(300, 1, 700),
        new DemoProfiles(0, 1, 0))) {
      SimResult hare = DemoPrediction.simulate(jobs, nodes, p.table(DemoWorkload.DEFAULT_TASK_MS),
          DemoPredictionTest.policy("hare"));
      SimResult fifo = DemoPrediction.simulate(jobs, nodes,
          p.table(DemoWorkload.DEFAULT_TASK_MS), DemoPredictionTest.policy("yarn-fifo"));
      double ratio = fifo.totalWeightedJctS() / hare.totalWeightedJctS();
      assertTrue(p + ": yarn-fifo / hare = " + ratio, ratio >= 1.4);
      // a quick start that compares two policies: under 5 minutes each (7-8 measured for both)
      assertTrue(p + ": the demo stays short, hare's makespan " + hare.makespanS(),
          hare.makespanS() < 300);
    }
  }
}
