package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.JobSpec;
import io.hare.core.policy.Assignment;
import java.util.List;
import org.junit.Test;

/** Every rule of {@code SchedulingPolicy} the simulator enforces: breaking one throws. */
public class SimulatorRulesTest {

  private static final JobSpec X = new JobSpec("X", 0, 1, "m", 1, 1);
  private static final JobSpec Y = new JobSpec("Y", 0, 1, "m", 1, 1);

  @Test(timeout = 60_000)
  public void unknownGpu() {
    assertBroken("testing: unknown GPU zz", "a=1", answerAt(0, new Assignment("zz", "X")), X);
  }

  @Test(timeout = 60_000)
  public void busyGpu() {
    // a-0 runs X from 0 to 100; at 50 Y arrives and the policy gives it a-0 although only a-1
    // is offered
    TestingPolicy p = new TestingPolicy((c, free, now) -> {
      if (now == 0) {
        return List.of(new Assignment("a-0", "X"));
      }
      assertEquals(List.of("a-1"), free.stream().map(g -> g.id()).toList());
      return List.of(new Assignment("a-0", "Y"));
    });
    assertBroken("testing: GPU a-0 is busy or assigned twice at 50 ms", "a=2", p, X,
        new JobSpec("Y", 50, 1, "m", 1, 1));
  }

  @Test(timeout = 60_000)
  public void gpuAssignedTwiceInOneAnswer() {
    assertBroken("testing: GPU a-0 is busy or assigned twice at 0 ms", "a=2",
        answerAt(0, new Assignment("a-0", "X"), new Assignment("a-0", "Y")), X, Y);
  }

  @Test(timeout = 60_000)
  public void unknownJob() {
    assertBroken("testing: job ghost is not active at 0 ms", "a=1",
        answerAt(0, new Assignment("a-0", "ghost")), X);
  }

  @Test(timeout = 60_000)
  public void jobNotYetArrived() {
    assertBroken("testing: job Y is not active at 0 ms", "a=1",
        answerAt(0, new Assignment("a-0", "Y")), X, new JobSpec("Y", 500, 1, "m", 1, 1));
  }

  @Test(timeout = 60_000)
  public void jobWithoutReadyTask() {
    // X has one task per round: the second assignment has nothing to start
    assertBroken("testing: job X has no ready task at 0 ms", "a=2",
        answerAt(0, new Assignment("a-0", "X"), new Assignment("a-1", "X")), X);
  }

  @Test(timeout = 60_000)
  public void jobBetweenRoundsHasNoReadyTask() {
    // X: 2 rounds; its first task computes 0-100 and syncs to 130. Z's arrival at 110 makes an
    // offer while X waits for its barrier; giving X a GPU then is a bug.
    TestingPolicy p = new TestingPolicy((c, free, now) -> List.of(new Assignment("a-0", "X")));
    assertBroken("testing: job X has no ready task at 110 ms", "a=2", p,
        new JobSpec("X", 0, 1, "m", 1, 2), new JobSpec("Z", 110, 1, "m", 1, 1));
  }

  @Test(timeout = 60_000)
  public void ineligibleType() {
    assertBroken("testing: job B (model onlyb) cannot run on a", "a=1,b=1",
        answerAt(0, new Assignment("a-0", "B")), new JobSpec("B", 0, 1, "onlyb", 1, 1));
  }

  @Test(timeout = 60_000)
  public void nullAnswer() {
    assertBroken("testing: assign returned null", "a=1", new TestingPolicy((c, f, now) -> null),
        X);
  }

  /** Answers {@code at} with the given assignments, and nothing at other times. */
  private static TestingPolicy answerAt(long at, Assignment... as) {
    return new TestingPolicy((c, free, now) -> now == at ? List.of(as) : List.of());
  }

  private static void assertBroken(String message, String cluster, TestingPolicy p,
      JobSpec... jobs) {
    try {
      SimResult r = SimulatorTest.run(cluster, 0, p, jobs);
      fail("rule break accepted: " + r);
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(message));
    }
  }
}
