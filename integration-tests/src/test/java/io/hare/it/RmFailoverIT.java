package io.hare.it;

import static org.junit.Assert.assertTrue;

import io.hare.demo.DemoResult;
import io.hare.demo.Fault;
import io.hare.demo.Injected;
import io.hare.embedded.SchedulerJournal;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * A ResourceManager failover alone: two RMs as an HA pair with automatic failover (YARN's
 * embedded elector) and a ZooKeeper state store. The active RM stops; the standby takes over by
 * itself and recovers the applications; the NodeManagers and AMs fail over to it
 * ({@link RmDownChecks}: nothing is lost).
 */
public class RmFailoverIT extends RmDownChecks {

  @ClassRule
  public static final Timeout RUN = Timeout.seconds(420);

  private static DemoResult run;

  @BeforeClass
  public static void runWithTheFault() throws Exception {
    run = runWith("RmFailoverIT", Fault.RM_FAILOVER);
  }

  @Override
  DemoResult run() {
    return run;
  }

  @Override
  Fault fault() {
    return Fault.RM_FAILOVER;
  }

  /**
   * The RM that took over placed GPU tasks: the scheduler journal, fed by whichever RM's
   * scheduler is active, has tasks started after the failover, and the stopped RM came back.
   */
  @Test(timeout = 10_000)
  public void theStandbyTookOverAndPlacedTheRest() {
    Injected f = FaultChecks.injected(run, Fault.RM_FAILOVER);
    assertTrue(f.detail(), f.detail().matches("stopped the active ResourceManager rm0; rm1 took"
        + " over by itself after \\d+ ms .* rm0 came back as the standby.*"));
    long placedAfter = run.journal().stream()
        .filter(e -> e.kind() == SchedulerJournal.Kind.STARTED && e.ms() > f.atMs()).count();
    assertTrue("no GPU task placed after the failover\n" + FaultChecks.report(run),
        placedAfter > 0);
  }
}
