package io.hare.it;

import io.hare.demo.DemoResult;
import io.hare.demo.Fault;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.rules.Timeout;

/**
 * A ResourceManager restart alone, with work-preserving recovery from a file-system state store
 * ({@link RmDownChecks}: nothing is lost).
 */
public class RmRestartIT extends RmDownChecks {

  @ClassRule
  public static final Timeout RUN = Timeout.seconds(420);

  private static DemoResult run;

  @BeforeClass
  public static void runWithTheFault() throws Exception {
    run = runWith("RmRestartIT", Fault.RM_RESTART);
  }

  @Override
  DemoResult run() {
    return run;
  }

  @Override
  Fault fault() {
    return Fault.RM_RESTART;
  }
}
