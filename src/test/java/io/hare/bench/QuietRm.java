package io.hare.bench;

import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.junit.rules.ExternalResource;

/**
 * The root logger at WARN for a test that runs thousands of containers: the RM logs several
 * INFO lines per container (state transitions, audit), which would fill the test's output file
 * and take most of its time. Restored after the test.
 */
public final class QuietRm extends ExternalResource {

  private Level before;

  @Override
  protected void before() {
    before = LogManager.getRootLogger().getLevel();
    LogManager.getRootLogger().setLevel(Level.WARN);
  }

  @Override
  protected void after() {
    LogManager.getRootLogger().setLevel(before);
  }
}
