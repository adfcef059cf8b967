package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.testing.Corpus;
import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

/**
 * {@code affinity-penalty=Infinity} is the ban {@code hare} had before the key existed, to the
 * bit: on medium corpus instances where the affinity matters (penalty 0 changes the result by
 * 4-11 %), its totals are those measured at commit 746efa5, the last without the key.
 */
public class AffinityPenaltyBanTest {

  /** Corpus.medium(seed) and hare's total weighted JCT there at 746efa5, in seconds. */
  private static final long[] SEEDS = {1, 7, 10};
  private static final double[] BAN_TOTALS_S = {699.093, 356.3485, 569.1995};

  /** hare's total with exact plans off, as the ban's totals were recorded. */
  private static double total(Corpus.Instance in, Map<String, String> conf) throws Exception {
    Map<String, String> c = new HashMap<>(conf);
    c.put(HareKeys.EXACT_MAX_TASKS, "0");
    return new Simulator(in.cluster(), in.jobs(), in.profiles(), SimOptions.defaults())
        .run(Policies.create(HarePolicy.NAME, new PolicyConfig(c, 1))).totalWeightedJctS();
  }

  @Test(timeout = 120_000)
  public void infinityGivesTheBansTotalsExactly() throws Exception {
    for (int i = 0; i < SEEDS.length; i++) {
      Corpus.Instance in = Corpus.medium(SEEDS[i]);
      double ban = total(in, Map.of(HareKeys.AFFINITY_PENALTY, "Infinity"));
      assertEquals(in.name(), BAN_TOTALS_S[i], ban, 0);
      // the instance is one where the affinity changes decisions
      assertNotEquals(in.name(), ban, total(in, Map.of(HareKeys.AFFINITY_PENALTY, "0")), 1e-9);
    }
  }
}
