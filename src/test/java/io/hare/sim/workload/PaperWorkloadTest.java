package io.hare.sim.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ClusterSpec;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.TaskTimes;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.sim.SimKeys;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.workload.PaperModels.Category;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;

/** The paper workload: model table, category shares, sizes, arrivals, determinism, runnability. */
public class PaperWorkloadTest {

  private static final ClusterSpec PAPER_CLUSTER = ClusterSpec.parse("v100=40,t4=40,k80=40,m60=40");
  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType K80 = GpuType.of("k80");
  private static final GpuType T4 = GpuType.of("t4");

  @Test(timeout = 60_000)
  public void taskTimesComeFromTable3AndFig2() {
    PaperModels.Model resnet = PaperModels.MODELS.get(1);
    // Table 3: Hare switches ResNet50 in 2.04 ms, 3.71% of the task: 2.04 (1/0.0371 - 1) ms.
    assertEquals(52.9465, resnet.v100BatchMs(), 0.0001);
    // Fig. 2: V100 6.9x and T4 2.2x a K80.
    assertEquals(52.9465 * 6.9, resnet.batchMs(K80), 0.001);
    assertEquals(52.9465 * 6.9 / 2.2, resnet.batchMs(T4), 0.001);
    Workload w = PaperWorkload.generate(PAPER_CLUSTER, 0, 1, Map.of());
    assertTrue(w.jobs().isEmpty());
    TaskTimes[] t = PaperWorkload.times(resnet, 4, 0.34);
    assertEquals(4 * 52.9465 * 6.9, t[0].computeMs(), 0.01); // k80, 4 mini-batches
    assertEquals(4 * 0.34 * 52.9465, t[0].syncMs(), 0.001); // same sync on every type
    assertEquals(t[0].syncMs(), t[3].syncMs(), 0);
  }

  @Test(timeout = 60_000)
  public void everyModelHasACategoryAndTheUnrowedOnesUseTheirNeighbour() {
    assertEquals(8, PaperModels.MODELS.size());
    assertEquals(Category.CV, PaperModels.categoryOf("vgg19-x16"));
    assertEquals(Category.REC, PaperModels.categoryOf("graphsage"));
    assertEquals(null, PaperModels.categoryOf("resnet-50-bs64"));
    // GraphSAGE gains only 2.2x on V100, BERT borrows Transformer's 5.55x.
    PaperModels.Model sage = PaperModels.MODELS.get(7);
    assertEquals(2.2, sage.batchMs(K80) / sage.batchMs(V100), 1e-9);
    PaperModels.Model bert = PaperModels.MODELS.get(3);
    assertEquals(5.55, bert.batchMs(K80) / bert.batchMs(V100), 1e-9);
  }

  @Test(timeout = 60_000)
  public void categoriesAreAQuarterEachOverManyJobs() {
    Workload w = PaperWorkload.generate(PAPER_CLUSTER, 4000, 7, Map.of());
    Map<Category, Integer> n = new EnumMap<>(Category.class);
    for (JobSpec j : w.jobs()) {
      n.merge(PaperModels.categoryOf(j.model()), 1, Integer::sum);
    }
    for (Category c : Category.values()) {
      double share = n.getOrDefault(c, 0) / 4000.0;
      assertEquals(c + " share", 0.25, share, 0.03);
    }
  }

  @Test(timeout = 60_000)
  public void categoryMixSettingIsFollowed() {
    Workload w = PaperWorkload.generate(PAPER_CLUSTER, 300, 3,
        Map.of(SimKeys.PAPER_CATEGORY_MIX, "0,0,1,0"));
    for (JobSpec j : w.jobs()) {
      assertEquals(Category.SPEECH, PaperModels.categoryOf(j.model()));
    }
  }

  @Test(timeout = 60_000)
  public void sameSeedSameWorkloadOtherSeedAnother() {
    Workload a = PaperWorkload.generate(PAPER_CLUSTER, 200, 42, Map.of());
    Workload b = PaperWorkload.generate(PAPER_CLUSTER, 200, 42, Map.of());
    Workload c = PaperWorkload.generate(PAPER_CLUSTER, 200, 43, Map.of());
    assertEquals(a.jobs(), b.jobs());
    for (String m : a.profiles().models()) {
      assertEquals(a.profiles().forModel(m), b.profiles().forModel(m));
    }
    assertNotEquals(a.jobs(), c.jobs());
  }

  @Test(timeout = 60_000)
  public void withAFixedRateAPrefixOfJobsDoesNotDependOnTheCount() {
    Map<String, String> s = Map.of(SimKeys.PAPER_ARRIVAL_RATE_PER_HOUR, "120");
    List<JobSpec> big = PaperWorkload.generate(PAPER_CLUSTER, 300, 5, s).jobs();
    List<JobSpec> small = PaperWorkload.generate(ClusterSpec.parse("v100=64"), 100, 5, s).jobs();
    assertEquals(big.subList(0, 100), small);
  }

  @Test(timeout = 60_000)
  public void everyJobIsRunnableAndWithinTheSizeBounds() throws Exception {
    for (String c : new String[] {"v100=40,t4=40,k80=40,m60=40", "v100=2,k80=1", "m60=1,a100=8"}) {
      ClusterSpec cluster = ClusterSpec.parse(c);
      Workload w = PaperWorkload.generate(cluster, 500, 11, Map.of());
      WorkloadFiles.checkRunnable(w, cluster);
      int usable = cluster.count(V100) + cluster.count(K80) + cluster.count(T4)
          + cluster.count(GpuType.of("m60"));
      for (JobSpec j : w.jobs()) {
        assertTrue(c + ": " + j, j.tasksPerRound() <= usable);
        assertTrue(j + " has at most 200 rounds", j.rounds() <= 200);
        assertTrue(List.of(1, 2, 4, 8).contains(j.tasksPerRound()));
        assertTrue(j.weight() >= 1 && j.weight() <= 4 && j.weight() == Math.rint(j.weight()));
        // Isolated run on V100s: rounds x (compute + sync); within [60 s, 4 h] up to rounding of
        // the round count (half a round either way, one round at least).
        TaskTimes t = w.profiles().times(j.model(), V100);
        double runMs = j.rounds() * t.roundMs();
        assertTrue(j + ": " + runMs, runMs >= 60_000 - t.roundMs() / 2 - 1e-6 || j.rounds() == 1);
        assertTrue(j + ": " + runMs, runMs <= 14_400_000 + t.roundMs() / 2 + 1e-6);
        assertEquals(0.34, t.syncMs() / t.computeMs(), 1e-9);
      }
    }
  }

  @Test(timeout = 60_000)
  public void scalesWiderThanTheClusterAreDropped() {
    Workload w = PaperWorkload.generate(ClusterSpec.parse("v100=2,k80=1"), 200, 1, Map.of());
    assertTrue(w.jobs().stream().allMatch(j -> j.tasksPerRound() <= 2));
    assertTrue(w.jobs().stream().anyMatch(j -> j.tasksPerRound() == 2));
  }

  @Test(timeout = 60_000)
  public void boundedParetoMatchesItsHandComputedMoments() {
    // alpha = 1 on [60 s, 4 h]: mean = H L / (H - L) ln(H / L) = 330.2 s; median solves
    // (1 - L/x) = 0.5 (1 - L/H), x = 119.5 s.
    assertEquals(330.2, PaperWorkload.boundedParetoMean(60, 14400, 1), 0.1);
    // alpha = 2 on [1, 2]: mean = 2 L^2/(1 - 1/4) (1/L - 1/H) = 4/3.
    assertEquals(4.0 / 3, PaperWorkload.boundedParetoMean(1, 2, 2), 1e-12);
    Random r = new Random(1);
    double[] x = new double[20001];
    for (int i = 0; i < x.length; i++) {
      x[i] = PaperWorkload.boundedPareto(r, 60, 14400, 1);
      assertTrue(x[i] >= 60 && x[i] <= 14400);
    }
    java.util.Arrays.sort(x);
    assertEquals(119.5, x[10000], 4);
  }

  @Test(timeout = 60_000)
  public void offeredLoadSetsTheArrivalRate() {
    // Every job: k = 2, 600 s on V100s, sync half of compute, so 2 x 600 / 1.5 = 800 V100-s of
    // compute. Load 0.5 on 10 V100s: 0.5 x 10 / 800 s = one job per 160 s on average.
    Map<String, String> s = Map.of(SimKeys.PAPER_SCALES, "2", SimKeys.PAPER_DURATION_MIN_S, "600",
        SimKeys.PAPER_DURATION_MAX_S, "600", SimKeys.PAPER_SYNC_SHARE, "0.5",
        SimKeys.PAPER_OFFERED_LOAD, "0.5");
    List<JobSpec> jobs = PaperWorkload.generate(ClusterSpec.parse("v100=10"), 3001, 9, s).jobs();
    assertEquals(0, jobs.get(0).arrivalMs());
    double meanGapS = jobs.get(3000).arrivalMs() / 3000.0 / 1000;
    assertEquals(160, meanGapS, 160 * 0.06);
    // On a cluster of half the capacity the same load means half the rate: gaps twice as long.
    List<JobSpec> half = PaperWorkload.generate(ClusterSpec.parse("v100=5"), 3001, 9, s).jobs();
    assertEquals(jobs.get(3000).arrivalMs() * 2.0, half.get(3000).arrivalMs(), 2);
  }

  @Test(timeout = 60_000)
  public void capacityCountsSlowTypesAtTheirMeanSpeed() {
    // Rec/graph only: FastGCN and GraphSAGE both use the GraphSAGE row, a K80 is 1/2.2 V100.
    double c = PaperWorkload.capacity(ClusterSpec.parse("v100=3,k80=11"),
        new double[] {0, 0, 0, 1});
    assertEquals(3 + 11 / 2.2, c, 1e-9);
  }

  @Test(timeout = 60_000)
  public void badSettingsAreAllListed() {
    try {
      PaperWorkload.generate(PAPER_CLUSTER, 10, 1, Map.of(SimKeys.PAPER_CATEGORY_MIX, "1,1,1",
          SimKeys.PAPER_SCALES, "1,x", SimKeys.PAPER_DURATION_MIN_S, "500",
          SimKeys.PAPER_DURATION_MAX_S, "100", SimKeys.PAPER_SYNC_SHARE, "-1"));
      fail();
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      for (String key : new String[] {SimKeys.PAPER_CATEGORY_MIX, SimKeys.PAPER_SCALES,
          SimKeys.PAPER_DURATION_MIN_S, SimKeys.PAPER_SYNC_SHARE}) {
        assertTrue(m + " should name " + key, m.contains(key));
      }
      assertTrue(m, m.contains("4 problems"));
    }
  }

  @Test(timeout = 60_000)
  public void clusterWithoutPaperTypesIsRefused() {
    try {
      PaperWorkload.generate(ClusterSpec.parse("a100=8"), 10, 1, Map.of());
      fail();
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("a100=8")
          && e.getMessage().contains("v100"));
    }
  }

  @Test(timeout = 60_000)
  public void aGeneratedWorkloadSimulatesToTheEnd() throws Exception {
    ClusterSpec cluster = ClusterSpec.parse("v100=4,t4=4,k80=4,m60=4");
    Workload w = PaperWorkload.generate(cluster, 40, 2, Map.of());
    SimResult r = new Simulator(cluster, w.jobs(), w.profiles(), new SimOptions(0, false))
        .run(new YarnFifoPolicy(PolicyConfig.defaults()));
    assertEquals(0, r.unfinishedJobs());
    assertEquals(40, r.jobs().size());
  }
}
