package io.hare.demo;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A stock YARN application, not a Hare job, that a {@link DemoRun} starts beside its Hare jobs
 * ({@code hare demo --tenants}): it runs through its own unmodified client and ApplicationMaster,
 * asks for no GPUs, and is reported as a job of its {@link #kind} with YARN's final state.
 */
public interface StockApplication {

  /** Its name in the report, and its YARN application name. */
  String name();

  /** What it is, e.g. {@code distributedshell}; the report's {@code kind}. */
  String kind();

  /** The scheduler queue it is submitted to. */
  String queue();

  /** When it is submitted, ms after the run's first submission. */
  long submitAtMs();

  /**
   * Submits it to the cluster of {@code conf} and returns its application once the
   * ResourceManager knows it; its client may go on watching it in the background until
   * {@link #cleanUp}.
   *
   * @param dir a directory of the run it may write to
   * @throws IOException it could not be submitted, or the ResourceManager never listed it
   */
  ApplicationId submit(YarnConfiguration conf, File dir) throws IOException,
      InterruptedException;

  /** Stops its client and removes what it left outside the run's directory. */
  void cleanUp();
}
