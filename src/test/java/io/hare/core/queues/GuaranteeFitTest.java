package io.hare.core.queues;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import io.hare.core.policy.PolicyConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.Test;

/** Guarantees of both kinds checked against the GPUs the cluster has once it is known. */
public class GuaranteeFitTest {

  private static final GpuType V100 = GpuType.of("v100");
  private static final GpuType T4 = GpuType.of("t4");

  /** Queue a: 0.6 of the fleet; queue b: every V100. */
  private static QueueShares mixed() {
    PolicyConfig t = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.6",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.v100", "1"), 0);
    QueueShares q = QueueShares.read(t);
    assertEquals("each kind alone is valid", List.of(), t.problems());
    return q;
  }

  @Test(timeout = 60_000)
  public void mixedGuaranteesThatPromiseMoreThanTheFleetAreNamed() {
    // 6 of 10 for a, 4 V100s for b: fits
    assertEquals(Optional.empty(), GuaranteeFit.overcommit(mixed(), Map.of(V100, 4, T4, 6)));
    // 6 of 10 for a, 6 V100s for b: 12 promised on 10
    String w = GuaranteeFit.overcommit(mixed(), Map.of(V100, 6, T4, 4)).orElseThrow();
    assertTrue(w, w.contains("add up to 12 GPUs on a cluster of 10"));
    assertTrue(w, w.contains("a 6 (of the fleet), b 6 (per type)"));
    assertTrue(w, w.contains("2 GPUs fewer than promised"));
  }

  @Test(timeout = 60_000)
  public void oneKindAloneOrNoGpusYetIsNeverAProblem() {
    assertEquals(Optional.empty(), GuaranteeFit.overcommit(mixed(), Map.of()));
    PolicyConfig t = new PolicyConfig(Map.of("yarn.scheduler.hare.queues", "a,b",
        "yarn.scheduler.hare.queue.a.guaranteed-gpu-share", "0.6",
        "yarn.scheduler.hare.queue.b.guaranteed-gpu-share", "0.4"), 0);
    QueueShares fleet = QueueShares.read(t);
    assertEquals(Optional.empty(), GuaranteeFit.overcommit(fleet, Map.of(V100, 7, T4, 3)));
  }
}
