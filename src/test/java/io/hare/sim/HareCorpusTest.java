package io.hare.sim;

import static org.junit.Assert.assertTrue;

import io.hare.core.plan.ExactSchedule;
import io.hare.core.plan.ExactSolver;
import io.hare.core.plan.RelaxationBound;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.testing.Corpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 20's corpus: {@code hare} against every other policy on random medium instances, and
 * against the optimum CP-SAT proves on tiny ones. Seeded ({@link Corpus}), so every run sees the
 * same 70 instances; about 15 s on one core.
 */
public class HareCorpusTest {

  private static final Logger LOG = LoggerFactory.getLogger(HareCorpusTest.class);

  /** Most hare may lose to the best other policy on any medium instance (the target). */
  private static final double MEDIUM_MAX_BEHIND = 1.05;
  /**
   * Most hare's geometric mean over the tiny optima may reach with its default settings, which
   * plan small states exactly (exact.max-tasks=24; README, "Exact plans for small states"): the
   * issue's target. It measures 1.034; what is left is what an online policy cannot know, as the
   * optimum keeps a GPU idle for a job that has not arrived yet (tiny-4, 1.17x).
   */
  private static final double TINY_MAX_GEO_MEAN = 1.05;
  /**
   * The same with priority dispatch alone (exact.max-tasks=0), which decides in clusters past
   * exact.max-gpus: 1.075 measured, held to catch a regression.
   * The instances lost most are those where the optimum keeps a GPU idle for a job to come
   * (tiny-4) or runs a job on a type the LP's affinity bans (tiny-2, tiny-8).
   */
  private static final double TINY_MAX_GEO_MEAN_PRIORITY = 1.08;

  /** hare without exact plans of small states: priority dispatch alone. */
  private static final Map<String, String> PRIORITY = Map.of(HareKeys.EXACT_MAX_TASKS, "0");

  private static SimResult run(String policy, Corpus.Instance in, long seed) throws Exception {
    return run(policy, in, seed, Map.of());
  }

  private static SimResult run(String policy, Corpus.Instance in, long seed,
      Map<String, String> keys) throws Exception {
    return new Simulator(in.cluster(), in.jobs(), in.profiles(), SimOptions.defaults())
        .run(Policies.create(policy, new PolicyConfig(keys, seed)));
  }

  @Test(timeout = 180_000)
  public void hareIsWithinFivePercentOfTheBestOtherPolicyOnFortyMediumInstances()
      throws Exception {
    List<String> behind = new ArrayList<>();
    double logSum = 0;
    double priorityLogSum = 0;
    double worst = 0;
    for (long seed = 1; seed <= 40; seed++) {
      Corpus.Instance in = Corpus.medium(seed);
      double hare = run(HarePolicy.NAME, in, 1).totalWeightedJctS();
      double priority = run(HarePolicy.NAME, in, 1, PRIORITY).totalWeightedJctS();
      double best = Double.POSITIVE_INFINITY;
      String bestName = "";
      for (String name : Policies.names()) {
        if (name.equals(HarePolicy.NAME)) {
          continue;
        }
        SimResult r = run(name, in, 1);
        // a gang policy that cannot fit a job's k leaves it unfinished: its sum counts fewer
        if (r.unfinishedJobs() == 0 && r.totalWeightedJctS() < best) {
          best = r.totalWeightedJctS();
          bestName = name;
        }
      }
      logSum += Math.log(hare / best);
      priorityLogSum += Math.log(priority / best);
      worst = Math.max(worst, hare / best);
      if (hare > MEDIUM_MAX_BEHIND * best) {
        behind.add(String.format("%s: hare %.1f s, %s %.1f s (%.3fx)", in, hare, bestName, best,
            hare / best));
      }
      if (priority > MEDIUM_MAX_BEHIND * best) {
        behind.add(String.format("%s: hare without exact plans %.1f s, %s %.1f s (%.3fx)", in,
            priority, bestName, best, priority / best));
      }
    }
    // the figures, for the record (surefire keeps them in the test's output file)
    LOG.info("medium corpus: hare/best other policy geometric mean {}, worst {}; {} without "
        + "exact plans", String.format("%.3f", Math.exp(logSum / 40)),
        String.format("%.3f", worst), String.format("%.3f", Math.exp(priorityLogSum / 40)));
    assertTrue("hare more than 5% behind on " + behind + " (geometric mean hare/best other "
        + Math.exp(logSum / 40) + ")", behind.isEmpty());
  }

  @Test(timeout = 180_000)
  public void hareAgainstThirtyProvenOptima() throws Exception {
    ExactSolver solver = new ExactSolver(30, 1);
    double logSum = 0;
    double priorityLogSum = 0;
    List<String> worst = new ArrayList<>();
    for (long seed = 1; seed <= 30; seed++) {
      Corpus.Instance in = Corpus.tiny(seed);
      ExactSchedule opt = solver.solve(in.cluster(), in.jobs(), in.profiles());
      assertTrue(in + ": optimum not proven", opt.optimal());
      double optimum = opt.weightedJctS();
      double bound = RelaxationBound.totalWeightedJctS(in.cluster(), in.jobs(), in.profiles());
      assertTrue(in + ": bound " + bound + " above the optimum " + optimum,
          bound <= optimum + 1e-9);
      for (String name : Policies.names()) {
        SimResult r = run(name, in, seed);
        assertTrue(in + ": " + name + " " + r.totalWeightedJctS() + " below the optimum "
            + optimum, r.unfinishedJobs() > 0 || r.totalWeightedJctS() >= optimum - 1e-9);
      }
      double ratio = run(HarePolicy.NAME, in, 1).totalWeightedJctS() / optimum;
      logSum += Math.log(ratio);
      priorityLogSum += Math.log(run(HarePolicy.NAME, in, 1, PRIORITY).totalWeightedJctS()
          / optimum);
      if (ratio > 1.2) {
        worst.add(String.format("%s %.3f", in.name(), ratio));
      }
    }
    double geoMean = Math.exp(logSum / 30);
    double priorityGeoMean = Math.exp(priorityLogSum / 30);
    LOG.info("tiny corpus: hare/optimum geometric mean {} (over 1.2: {}), {} without exact plans",
        String.format("%.3f", geoMean), worst, String.format("%.3f", priorityGeoMean));
    assertTrue("hare/optimum geometric mean " + geoMean + " (issue target 1.05; worst " + worst
        + ")", geoMean <= TINY_MAX_GEO_MEAN);
    assertTrue("hare/optimum geometric mean " + priorityGeoMean + " without exact plans",
        priorityGeoMean <= TINY_MAX_GEO_MEAN_PRIORITY);
  }
}
