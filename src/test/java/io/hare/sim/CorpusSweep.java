package io.hare.sim;

import io.hare.core.plan.ExactSchedule;
import io.hare.core.plan.ExactSolver;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.testing.Corpus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Not a test but a bench tool in test scope (it needs {@link Corpus}): measures {@code hare} on
 * {@link HareCorpusTest}'s corpora for several values of one scheduler key, solving the tiny
 * optima and running the other policies on the medium instances once for all values. Prints, per
 * instance, hare over the optimum (tiny) or over the best other policy (medium) for each value,
 * then per value the geometric mean, the worst ratio and the instances over 1.2 (tiny) or 1.05
 * (medium), the figures {@link HareCorpusTest} logs. {@code dist/bench/corpus-sweep} runs it:
 * {@code dist/bench/corpus-sweep KEY tiny|medium VALUE[,VALUE...] [FROM-TO]}; the value
 * {@code -} leaves the key unset (its default). FROM-TO are the instances' seeds, by default
 * those of {@link HareCorpusTest} (1-30 tiny, 1-40 medium); others are held out from the
 * choice of the defaults. A tiny instance whose optimum is not proven is left out, and said so.
 */
public final class CorpusSweep {

  private CorpusSweep() {}

  public static void main(String[] args) throws Exception {
    String key = args[0];
    boolean tiny = args[1].equals("tiny");
    String[] values = args[2].split(",");
    long from = 1;
    long to = tiny ? 30 : 40;
    if (args.length > 3) {
      String[] range = args[3].split("-");
      from = Long.parseLong(range[0]);
      to = Long.parseLong(range[1]);
    }
    int count = 0;
    double[] logSum = new double[values.length];
    double[] worst = new double[values.length];
    List<List<String>> over = new ArrayList<>();
    for (int v = 0; v < values.length; v++) {
      over.add(new ArrayList<>());
    }
    ExactSolver solver = new ExactSolver(30, 1);
    for (long seed = from; seed <= to; seed++) {
      Corpus.Instance in = tiny ? Corpus.tiny(seed) : Corpus.medium(seed);
      double ref;
      if (tiny) {
        ExactSchedule opt = solver.solve(in.cluster(), in.jobs(), in.profiles());
        if (!opt.optimal()) {
          System.out.println(in.name() + " left out: optimum not proven");
          continue;
        }
        ref = opt.weightedJctS();
      } else {
        ref = Double.POSITIVE_INFINITY;
        for (String name : Policies.names()) {
          if (name.equals(HarePolicy.NAME)) {
            continue;
          }
          SimResult r = run(name, in, Map.of());
          if (r.unfinishedJobs() == 0) {
            ref = Math.min(ref, r.totalWeightedJctS());
          }
        }
      }
      count++;
      StringBuilder line = new StringBuilder(in.name());
      for (int v = 0; v < values.length; v++) {
        Map<String, String> conf = new HashMap<>();
        if (!values[v].equals("-")) {
          conf.put(key, values[v]);
        }
        double ratio = run(HarePolicy.NAME, in, conf).totalWeightedJctS() / ref;
        logSum[v] += Math.log(ratio);
        worst[v] = Math.max(worst[v], ratio);
        if (ratio > (tiny ? 1.2 : 1.05)) {
          over.get(v).add(String.format("%s %.3f", in.name(), ratio));
        }
        line.append(String.format(" %.4f", ratio));
      }
      System.out.println(line);
    }
    for (int v = 0; v < values.length; v++) {
      System.out.printf("%s=%s %s: geomean %.4f worst %.4f over: %s%n", key, values[v],
          tiny ? "tiny/optimum" : "medium/best-other", Math.exp(logSum[v] / count), worst[v],
          over.get(v));
    }
  }

  private static SimResult run(String policy, Corpus.Instance in, Map<String, String> conf)
      throws Exception {
    return new Simulator(in.cluster(), in.jobs(), in.profiles(), SimOptions.defaults())
        .run(Policies.create(policy, new PolicyConfig(conf, 1)));
  }
}
