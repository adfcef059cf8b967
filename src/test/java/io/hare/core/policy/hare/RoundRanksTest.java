package io.hare.core.policy.hare;

import static org.junit.Assert.assertEquals;

import io.hare.core.plan.PlanJob;
import io.hare.core.plan.PlanningProblem;
import io.hare.core.plan.RandomProblems;
import io.hare.core.plan.SmithOrder;
import java.util.Random;
import org.junit.Test;

/** Ranks from the Smith order's job keys are the ranks from its listed groups. */
public class RoundRanksTest {

  @Test(timeout = 60_000)
  public void smithKeysRankEveryRoundAsTheListedOrder() {
    Random r = new Random(3);
    for (int c = 0; c < 3000; c++) {
      PlanningProblem p = RandomProblems.of(r);
      RoundRanks listed = new RoundRanks();
      listed.reset(p, SmithOrder.of(p));
      RoundRanks keyed = new RoundRanks();
      keyed.reset(p, SmithOrder.jobKeys(p));
      for (PlanJob j : p.jobs()) {
        assertEquals(listed.has(j.id()), keyed.has(j.id()));
        // before the first group, every ranked group, past the ranked ones and past the job
        for (int round = j.firstRound() - 1; round <= j.firstRound() + j.groups() + 2; round++) {
          assertEquals("case " + c + " job " + j.id() + " round " + round,
              Double.doubleToLongBits(listed.rank(j.id(), round)),
              Double.doubleToLongBits(keyed.rank(j.id(), round)));
        }
      }
    }
  }
}
