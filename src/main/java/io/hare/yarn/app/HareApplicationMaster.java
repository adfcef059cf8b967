package io.hare.yarn.app;

/** Placeholder; wired below. */
public final class HareApplicationMaster {
  public static final String SPEC_FILE = "hare-job.xml";

  private HareApplicationMaster() {}
}
