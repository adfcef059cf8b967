package io.hare.yarn.scheduler;

import java.util.concurrent.Executor;

/**
 * The Hare scheduler with re-plans on the calling thread: a pass that starts a re-plan uses its
 * plan at once, so MockRM tests see the same decisions at every run.
 */
public class SameThreadHareScheduler extends HareScheduler {

  @Override
  protected Executor newReplanExecutor() {
    return Runnable::run;
  }
}
