package io.hare.core.policy;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * GPUs that leave and join between two offers without a task event (a node lost or silent, a
 * node added): a policy that indexes the free GPUs answers from the GPUs of the cluster as it is
 * now, even when the offer has as many GPUs as the ones it indexed before.
 */
@RunWith(Parameterized.class)
public class ChangingGpusTest {

  @Parameters(name = "{0}")
  public static List<Object[]> policies() {
    return List.of(new Object[] {"hare"}, new Object[] {"hlas"});
  }

  private final String name;

  public ChangingGpusTest(String name) {
    this.name = name;
  }

  @Test(timeout = 60_000)
  public void answersWithTheGpusOfferedAfterTheClusterChanged() throws Exception {
    PartialOfferTest.FakeCluster c = new PartialOfferTest.FakeCluster();
    SchedulingPolicy p = Policies.create(name, PolicyConfig.defaults());
    p.onJobArrived(c.job, 0);
    assertFalse(assign(p, c, 0).isEmpty()); // indexes g0..g3; nothing starts
    c.gpus.clear(); // nodes n0 and n1 left, n2 and n3 joined: as many GPUs
    for (int i = 4; i < 8; i++) {
      c.gpus.add(new PartialOfferTest.FakeGpu("g" + i, "n" + (i / 2)));
    }
    c.version++;
    Set<String> given = assign(p, c, 1_000);
    assertFalse(given.isEmpty());
    assertTrue(given + " should be of the offer g4..g7",
        Set.of("g4", "g5", "g6", "g7").containsAll(given));
  }

  private static Set<String> assign(SchedulingPolicy p, PartialOfferTest.FakeCluster c,
      long nowMs) {
    if (p.replanDue(nowMs)) {
      p.replan(c, nowMs);
    }
    return p.assign(c, c.gpus, nowMs).stream().map(Assignment::gpuId)
        .collect(Collectors.toSet());
  }
}
