package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.core.policy.Assignment;
import io.hare.core.policy.ClusterView;
import io.hare.core.policy.GpuView;
import io.hare.core.policy.Replan;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.testing.FakeCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.Test;

/**
 * The replay installs a split re-plan where the RM did: the snapshot and solve at the RM's
 * re-plan start, the install at the RM's later pass, before the policy is offered GPUs then; a
 * run recorded without installs (a policy that does not split, or an older run) re-plans whole.
 */
public class ReplayedSplitReplanTest {

  private final FakeCluster cluster = new FakeCluster(List.of(), List.of(), null);

  private static ReplayedPolicy replayed(Splitting policy, long[] replans, long[] installs) {
    return new ReplayedPolicy(policy, (job, type, ms) -> { }, replans, installs,
        new long[] {10, 20, 30}, List.of());
  }

  @Test(timeout = 60_000)
  public void aReplanTheRmInstalledLaterIsInstalledAtThatPass() {
    Splitting policy = new Splitting();
    ReplayedPolicy r = replayed(policy, new long[] {10}, new long[] {30});
    assertTrue(r.replanDue(10));
    r.replan(cluster, 10);
    assertFalse(r.replanDue(20));
    assertEquals("the install time wakes the simulator", OptionalLong.of(30), r.wakeUpAtMs());
    assertEquals(List.of("start 10", "solve"), policy.events);
    assertFalse(r.replanDue(30));
    assertEquals(List.of("start 10", "solve", "install 30"), policy.events);
  }

  @Test(timeout = 60_000)
  public void aReplanInstalledInTheSamePassOrARunWithoutInstallsReplansWhole() {
    Splitting same = new Splitting();
    ReplayedPolicy r = replayed(same, new long[] {10, 20}, new long[] {10, 20});
    r.replanDue(10);
    r.replan(cluster, 10);
    r.replanDue(20);
    r.replan(cluster, 20);
    assertEquals(List.of("whole 10", "whole 20"), same.events);

    Splitting older = new Splitting();
    ReplayedPolicy o = replayed(older, new long[] {10}, new long[0]);
    o.replanDue(10);
    o.replan(cluster, 10);
    assertEquals(List.of("whole 10"), older.events);
  }

  @Test(timeout = 60_000)
  public void aReplanTheRunEndedBeforeInstallingIsNeverInstalled() {
    Splitting policy = new Splitting();
    ReplayedPolicy r = replayed(policy, new long[] {10, 20}, new long[] {15});
    r.replanDue(10);
    r.replan(cluster, 10);
    r.replanDue(15);
    r.replanDue(20);
    r.replan(cluster, 20);
    r.replanDue(1_000_000);
    assertEquals(List.of("start 10", "solve", "install 15", "start 20", "solve"),
        policy.events);
  }

  /** Records its re-plan steps. */
  private static final class Splitting implements SchedulingPolicy {
    final List<String> events = new ArrayList<>();

    @Override
    public String name() {
      return "splitting";
    }

    @Override
    public boolean clairvoyant() {
      return false;
    }

    @Override
    public void replan(ClusterView c, long nowMs) {
      events.add("whole " + nowMs);
    }

    @Override
    public Optional<Replan> startReplan(ClusterView c, long startMs) {
      events.add("start " + startMs);
      return Optional.of(() -> {
        events.add("solve");
        return (view, nowMs) -> events.add("install " + nowMs);
      });
    }

    @Override
    public List<Assignment> assign(ClusterView c, List<? extends GpuView> free, long nowMs) {
      return List.of();
    }
  }
}
